import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../src/core/engine/events';
import { jsonlOutput, type OutputSink, textOutput } from '../../src/cli/format/session';

// What `run` and `simulate` print for people and for machines, from the engine's own lines.

function sink(): OutputSink & { text: string; writes: string[] } {
  const out = { text: '', writes: [] as string[], color: false, live: false, write: (text: string) => ((out.text += text), out.writes.push(text)) };
  return out;
}

const ID = 'containerd://c1';
const base = { pod: 'api-0', container: 'api', containerId: ID } as const;
const attempt = (t: number, probe: 'readiness' | 'liveness', over: Partial<Extract<EngineEvent, { type: 'attempt' }>> = {}): EngineEvent => ({ type: 'attempt', t, ...base, probe, outcome: 'success', output: '', durationMs: 4, ...over });

const CLUSTER_RUN: EngineEvent[] = [
  { type: 'container', t: 0, ...base, state: 'running', restartCount: 0 },
  { type: 'kubelet', t: 0, pod: 'api-0', container: 'api', started: true, ready: true, restartCount: 0 },
  // W2: the kubelet's initial values, before any attempt.
  { type: 'result', t: 0, ...base, probe: 'readiness', value: 'Failure' },
  { type: 'result', t: 0, ...base, probe: 'liveness', value: 'Success' },
  { type: 'status', t: 0, pod: 'api-0', container: 'api', started: true, ready: false },
  attempt(1, 'readiness', { outcome: 'failure', output: 'not ready\n' }),
  { type: 'event', t: 1, pod: 'api-0', container: 'api', reason: 'Unhealthy', message: 'Readiness probe failed: not ready\n', eventType: 'Warning', probe: 'readiness' },
  attempt(1, 'liveness', { outcome: 'unknown', error: 'exec probes run commands in your container and were not allowed (use --allow-exec)' }),
  { type: 'disagreement', t: 21, pod: 'api-0', container: 'api', state: 'open', ours: false, kubelet: true, cause: 'host-or-source', message: 'api answers the kubelet but fails ours (HTTP probe failed with statuscode: 403)' },
];

test('text: no line for the kubelet\'s initial results; a message that ends in a newline is one line; the summary says what never ran, the cluster kubelet\'s word and an open disagreement', () => {
  const out = sink();
  const text = textOutput(out, 'cluster');
  for (const event of CLUSTER_RUN) text.emit(event);
  text.finish();
  assert.equal(
    out.text,
    [
      '    0.0s  api-0/api  container running, restarts 0  containerd://c1',
      '    0.0s  api-0/api  cluster kubelet: started · ready · restarts 0',
      '    1.0s  api-0/api  Unhealthy  Readiness probe failed: not ready',
      '   21.0s  api-0/api  disagreement  api answers the kubelet but fails ours (HTTP probe failed with statuscode: 403)',
      '',
      '  api-0/api  running · started · not ready · restarts 0 · kubelet: ready (disagrees)',
      '    readiness  Failure  ✗             0/1 ok      not ready',
      '    liveness   not run  ?             0/1 ok      error: exec probes run commands in your container and were not allowed (use --allow-exec)',
      '    disagrees since 21.0s: api answers the kubelet but fails ours (HTTP probe failed with statuscode: 403)',
      '',
    ].join('\n'),
  );
});

test('text: a result after an attempt is a line; output of several lines says how many more', () => {
  const out = sink();
  const text = textOutput(out);
  text.emit(attempt(1, 'readiness', { outcome: 'failure', output: 'a\nb\nc\n' }));
  text.emit({ type: 'result', t: 1, ...base, probe: 'readiness', value: 'Failure' });
  text.emit({ type: 'event', t: 1, pod: 'api-0', container: 'api', reason: 'Unhealthy', message: 'Readiness probe failed: a\nb\nc\n', eventType: 'Warning', probe: 'readiness' });
  assert.deepEqual(out.text.split('\n').slice(0, 2), ['    1.0s  api-0/api  readiness → Failure', '    1.0s  api-0/api  Unhealthy  Readiness probe failed: a (+2 more lines)']);
});

test('jsonl live: the header with the first line, then a write per line; nothing at all when nothing happened', () => {
  const out = sink();
  const live = jsonlOutput(out, { mode: 'run' }, { live: true });
  assert.deepEqual(out.writes, []);
  live.emit(attempt(1, 'readiness'));
  live.emit(attempt(2, 'readiness'));
  assert.equal(out.writes.length, 3, 'each line is its own write, as it happens');
  assert.match(out.writes[0] ?? '', /^\{"type":"run","schemaVersion":1,"t":0,"mode":"run"\}\n$/);
  const idle = sink();
  jsonlOutput(idle, { mode: 'run' }, { live: true }).finish();
  assert.equal(idle.writes.length, 1, 'a run that saw nothing still says what ran');
  const buffered = sink();
  const simulate = jsonlOutput(buffered, { mode: 'simulate' });
  simulate.emit(attempt(1, 'readiness'));
  assert.deepEqual(buffered.writes, [], 'a simulation gathers its lines');
  simulate.finish();
  assert.equal(buffered.writes.length, 1);
});
