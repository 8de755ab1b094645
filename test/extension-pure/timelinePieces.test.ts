/**
 * The pure pieces of the timeline panel's host side (no `vscode` import): reading a recording as
 * it streams in, writing one in pieces, and finding lanes in a manifest. The panel itself runs
 * inside VS Code (test/extension/suite/timeline.vstest.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IncrementalChecker } from '../../src/core/editor/incrementalChecker';
import type { EngineEvent } from '../../src/core/engine/events';
import { parseJsonLines, runHeader, toJsonLines } from '../../src/core/timeline/jsonl';
import { jsonLinesChunks } from '../../src/extension/timeline/jsonLinesChunks';
import { lanesAt, lanesOf, locateInManifest } from '../../src/extension/timeline/manifestLanes';
import { MAX_LINE_CHARS, RecordingReader, readRecordingText } from '../../src/extension/timeline/recordingReader';
import { simulated, webPod } from '../helpers/engine';

const MANIFEST = webPod(`livenessProbe: {httpGet: {path: /healthz, port: 8080}, failureThreshold: 2}\nreadinessProbe: {tcpSocket: {port: http}}`);
const EVENTS = simulated(MANIFEST, 'containers: {web: {readyAfter: 20, failAfter: 60}}', 600);
const HEADER = runHeader({ mode: 'simulate', file: 'web.yaml', seed: 1 });

/** Feeds `text` to a reader in byte chunks of `size` (cutting lines and UTF-8 characters anywhere). */
function readInChunks(text: string, size: number, capacity = 1_000_000) {
  const bytes = new TextEncoder().encode(text);
  const reader = new RecordingReader(capacity);
  for (let at = 0; at < bytes.length; at += size) reader.feed(bytes.subarray(at, at + size));
  return reader.finish();
}

test('a recording read in chunks of any size is what parseJsonLines reads from the whole text', () => {
  const text = toJsonLines(HEADER, EVENTS);
  const whole = parseJsonLines(text);
  for (const size of [1, 7, 64, 1000, 1 << 20]) {
    const read = readInChunks(text, size);
    assert.deepEqual(read.header, whole.header, `header, chunks of ${size}`);
    assert.deepEqual(read.store.events(), whole.events, `events, chunks of ${size}`);
    assert.equal(read.skipped, 0);
    assert.equal(read.end, Math.max(...EVENTS.map((e) => e.t)));
  }
});

test('problems keep the file\'s line numbers across chunks; multi-byte text survives a cut inside a character', () => {
  const lines = [
    JSON.stringify(HEADER),
    JSON.stringify({ type: 'event', t: 1, pod: 'web', container: 'web', reason: 'Unhealthy', message: 'Liveness probe failed: état dégradé — ✗', eventType: 'Warning', probe: 'liveness' }),
    '{"type":"pod","t":2,"pod":"web","rea',
    '',
    JSON.stringify(HEADER),
    '{"type":"gc","t":3}',
    '{"type":"pod","t":4,"pod":"web","ready":true}',
  ];
  for (const size of [1, 3, 5, 17, 4096]) {
    const read = readInChunks(lines.join('\r\n'), size);
    assert.deepEqual(read.problems.map((p) => `${p.line} ${p.message.split(':')[0]}`), ['3 not JSON', '5 a second run header (one recording per file)', '6 unknown line type "gc"'], `chunks of ${size}`);
    assert.equal(read.skipped, 3);
    assert.deepEqual(read.store.events().map((e) => (e.type === 'event' ? e.message : e.type)), ['Liveness probe failed: état dégradé — ✗', 'pod']);
    assert.equal(read.end, 4);
  }
});

test('a line longer than the limit is skipped and said, and reading goes on after it', () => {
  const long = `{"type":"pod","t":1,"pod":"${'x'.repeat(MAX_LINE_CHARS)}","ready":true}`;
  const text = [JSON.stringify(HEADER), long, '{"type":"pod","t":2,"pod":"web","ready":true}', ''].join('\n');
  const read = readInChunks(text, 1 << 20);
  assert.deepEqual(read.problems, [{ line: 2, message: 'longer than 8 MiB: not an event line' }]);
  assert.deepEqual(read.store.events(), [{ type: 'pod', t: 2, pod: 'web', ready: true }]);
});

test('a recording above the cap keeps the cap\'s worth, and says what it dropped', () => {
  assert.ok(EVENTS.length > 100, `${EVENTS.length} events`);
  const read = readRecordingText(toJsonLines(HEADER, EVENTS), 100);
  assert.equal(read.store.size, 100);
  assert.equal(read.store.total, EVENTS.length);
  assert.equal(read.store.dropped().reduce((n, d) => n + d.count, 0), EVENTS.length - 100);
});

test('written in pieces, a recording is exactly toJsonLines', () => {
  for (const size of [1, 100, 10_000, 1 << 20]) assert.equal([...jsonLinesChunks(HEADER, EVENTS, size)].join(''), toJsonLines(HEADER, EVENTS), `pieces of ${size}`);
  assert.equal([...jsonLinesChunks(HEADER, [] as EngineEvent[])].join(''), toJsonLines(HEADER, []));
});

const SHOP = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
spec:
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec:
      containers:
        - name: api
          image: example/api:1
          startupProbe:
            httpGet: {path: /healthz, port: 8080}
          readinessProbe:
            httpGet: {path: /ready, port: 8080}
        - name: sidecar
          image: example/log:1
---
apiVersion: v1
kind: Pod
metadata:
  name: solo
spec:
  containers:
    - name: web
      image: nginx
      livenessProbe:
        tcpSocket: {port: 80}
`;

test('lanes under a position: a probe\'s; a container\'s and its probes\'; a pod\'s and everything in it', () => {
  const snapshot = new IncrementalChecker('shop.yaml').check(SHOP, { disabledRules: new Set(), context: { minorVersion: 33 } });
  const at = (line: number, character: number) => lanesAt(snapshot, { line, character });
  assert.deepEqual(at(15, 14), ['probe:shop/api/readiness']);
  assert.deepEqual(at(11, 16), ['container:shop/api', 'probe:shop/api/startup', 'probe:shop/api/readiness']);
  assert.deepEqual(at(17, 18), ['container:shop/sidecar']);
  assert.deepEqual(at(9, 8), ['pod:shop', 'container:shop/api', 'probe:shop/api/startup', 'probe:shop/api/readiness', 'container:shop/sidecar']);
  assert.deepEqual(at(27, 8), ['probe:solo/web/liveness']);
  assert.deepEqual(at(0, 0), []);
  assert.deepEqual(lanesOf(snapshot, 'shop', 'api'), ['container:shop/api', 'probe:shop/api/startup', 'probe:shop/api/readiness']);
  assert.deepEqual(lanesOf(snapshot, 'solo'), ['pod:solo', 'container:solo/web', 'probe:solo/web/liveness']);
  assert.deepEqual(lanesOf(undefined, 'gone', 'app'), ['container:gone/app']);
});

test('a lane\'s probe is found by its key, a container by its name, in file positions', () => {
  const snapshot = new IncrementalChecker('shop.yaml').check(SHOP, { disabledRules: new Set(), context: { minorVersion: 33 } });
  const text = (range: ReturnType<typeof locateInManifest>) => {
    assert.ok(range);
    const line = SHOP.split('\n')[range.start.line] ?? '';
    return line.slice(range.start.character, range.end.line === range.start.line ? range.end.character : undefined);
  };
  assert.equal(text(locateInManifest(snapshot, 'shop', 'api', 'readiness')), 'readinessProbe');
  assert.equal(text(locateInManifest(snapshot, 'solo', 'web', 'liveness')), 'livenessProbe');
  assert.equal(text(locateInManifest(snapshot, 'shop', 'sidecar')), 'sidecar');
  assert.equal(locateInManifest(snapshot, 'shop', 'api', 'liveness')?.start.line, locateInManifest(snapshot, 'shop', 'api')?.start.line, 'a probe the container no longer has: its container');
  assert.equal(locateInManifest(snapshot, 'gone', 'api'), undefined);
});
