/**
 * The breakpoint guard's parts that need no VS Code: reading holds from Debug Adapter Protocol
 * messages (src/extension/debug/threadStops.ts), the ledger of pauses that writes `pause` lines
 * and marks attempts (pauseLedger.ts), and which probing sessions a debug session holds
 * (pauseTargets.ts). The whole guard, with a real Node debug session: test/extension/suite/breakpointGuard.vstest.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EngineEvent } from '../../src/core/engine/events';
import { PauseLedger, STEP_GRACE_SECONDS } from '../../src/extension/debug/pauseLedger';
import { contains, sessionsHeldBy } from '../../src/extension/debug/pauseTargets';
import { ThreadStops } from '../../src/extension/debug/threadStops';

const stopped = (threadId: number, allThreadsStopped?: boolean) => ({ type: 'event', seq: 1, event: 'stopped', body: { reason: 'breakpoint', threadId, ...(allThreadsStopped === undefined ? {} : { allThreadsStopped }) } });
const continued = (threadId: number, allThreadsContinued?: boolean) => ({ type: 'event', seq: 2, event: 'continued', body: { threadId, ...(allThreadsContinued === undefined ? {} : { allThreadsContinued }) } });
const request = (seq: number, command: string, args: object = { threadId: 1 }) => ({ type: 'request', seq, command, arguments: args });
const response = (requestSeq: number, command: string, success = true, body?: object) => ({ type: 'response', seq: 100 + requestSeq, request_seq: requestSeq, command, success, ...(body ? { body } : {}) });

describe('holds from DAP messages', () => {
  test('stopped holds; continued (js-debug: allThreadsContinued false, its one thread) lets go', () => {
    const threads = new ThreadStops();
    assert.equal(threads.fromAdapter(stopped(1)), 'paused');
    assert.equal(threads.isHeld, true);
    assert.equal(threads.fromAdapter(stopped(1)), undefined, 'a second stop changes nothing');
    assert.equal(threads.fromAdapter(continued(1, false)), 'continued');
    assert.equal(threads.isHeld, false);
  });

  test('an adapter that sends no continued: the successful response to a resuming request lets go', () => {
    const threads = new ThreadStops();
    threads.fromAdapter(stopped(1));
    for (const [seq, command] of [[5, 'continue'], [6, 'next'], [7, 'stepIn'], [8, 'stepOut']] as const) {
      threads.fromAdapter(stopped(1));
      assert.equal(threads.toAdapter(request(seq, command)), undefined);
      assert.equal(threads.fromAdapter(response(seq, command)), 'continued', command);
    }
  });

  test('a failed resuming request keeps it held; other requests change nothing', () => {
    const threads = new ThreadStops();
    threads.fromAdapter(stopped(1));
    threads.toAdapter(request(5, 'continue'));
    assert.equal(threads.fromAdapter(response(5, 'continue', false)), undefined);
    threads.toAdapter(request(6, 'stackTrace'));
    assert.equal(threads.fromAdapter(response(6, 'stackTrace')), undefined);
    assert.equal(threads.isHeld, true);
  });

  test('several threads: held while any is stopped; a continue of one thread (allThreadsContinued false) lets only it go', () => {
    const threads = new ThreadStops();
    threads.fromAdapter(stopped(1));
    threads.fromAdapter(stopped(2));
    threads.toAdapter(request(5, 'continue', { threadId: 1 }));
    assert.equal(threads.fromAdapter(response(5, 'continue', true, { allThreadsContinued: false })), undefined);
    assert.equal(threads.isHeld, true);
    assert.equal(threads.fromAdapter(continued(2)), 'continued');
  });

  test('allThreadsStopped, then one thread continuing: the program runs', () => {
    const threads = new ThreadStops();
    threads.fromAdapter(stopped(1, true));
    assert.equal(threads.fromAdapter(continued(1)), 'continued');
  });

  test('terminated, exited, or the session ending: nothing is held', () => {
    for (const end of [{ type: 'event', event: 'terminated' }, { type: 'event', event: 'exited', body: { exitCode: 0 } }]) {
      const threads = new ThreadStops();
      threads.fromAdapter(stopped(1));
      assert.equal(threads.fromAdapter(end), 'continued');
    }
    const threads = new ThreadStops();
    threads.fromAdapter(stopped(1));
    assert.equal(threads.ended(), 'continued');
    assert.equal(threads.ended(), undefined);
  });

  test('garbage is ignored', () => {
    const threads = new ThreadStops();
    for (const message of [undefined, null, 42, 'stopped', { type: 'event' }, { type: 'response' }]) assert.equal(threads.fromAdapter(message), undefined);
    assert.equal(threads.toAdapter({ type: 'request', command: 'continue' }), undefined);
  });
});

function attempt(t: number, durationMs: number, outcome: 'success' | 'failure' = 'failure'): Extract<EngineEvent, { type: 'attempt' }> {
  return { type: 'attempt', t, pod: 'web', container: 'web', probe: 'liveness', containerId: 'local://1', outcome, output: '', durationMs };
}

const WORKER: EngineEvent = { type: 'worker', t: 0, pod: 'web', container: 'web', probe: 'liveness', handler: 'httpGet', initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 };
const DEBUG = { id: 'd1', name: 'server.js' };

describe('the pause ledger', () => {
  test('a pause and its end: one line per pod of the session', () => {
    const ledger = new PauseLedger(() => ['web', 'api']);
    assert.deepEqual(ledger.paused(DEBUG, 10), [
      { type: 'pause', t: 10, pod: 'web', state: 'paused', debugSession: 'server.js' },
      { type: 'pause', t: 10, pod: 'api', state: 'paused', debugSession: 'server.js' },
    ]);
    assert.deepEqual(ledger.paused(DEBUG, 11), [], 'already held by it');
    assert.deepEqual(ledger.hold, { pausedAt: 10, heldSince: 10 });
    assert.deepEqual(ledger.continued('d1', 20).map((l) => `${l.pod} ${l.state} ${l.t}`), ['web continued 20', 'api continued 20']);
    assert.equal(ledger.hold, undefined);
    assert.deepEqual(ledger.continued('d1', 21), [], 'not held any more');
    assert.deepEqual(ledger.continued('other', 21), [], 'a debug session that never held it');
  });

  test('attempts whose interval [t − durationMs/1000, t] overlaps a pause are marked paused: true, the others not', () => {
    const ledger = new PauseLedger(() => ['web']);
    ledger.paused(DEBUG, 10);
    ledger.continued('d1', 20);
    const marked = (t: number, ms: number) => (ledger.mark(attempt(t, ms)) as { paused?: true }).paused === true;
    assert.equal(marked(9.5, 5), false, 'ended before the pause');
    assert.equal(marked(11, 1000), true, 'ran during it');
    assert.equal(marked(20.5, 1000), true, 'began during it, ended after');
    assert.equal(marked(10.2, 1000), true, 'began before, ended during');
    assert.equal(marked(21, 5), false, 'after it');
    ledger.paused(DEBUG, 30);
    assert.equal(marked(31, 1000), true, 'during an open pause');
    assert.equal(marked(29.9, 5), false, 'ended before the open pause');
  });

  test('a step (paused again within the grace) keeps the hold going from the first pause', () => {
    const ledger = new PauseLedger(() => ['web']);
    ledger.paused(DEBUG, 10);
    ledger.continued('d1', 20);
    ledger.paused(DEBUG, 20 + STEP_GRACE_SECONDS / 2);
    assert.deepEqual(ledger.hold, { pausedAt: 20 + STEP_GRACE_SECONDS / 2, heldSince: 10 });
    ledger.continued('d1', 25);
    ledger.paused(DEBUG, 25 + STEP_GRACE_SECONDS * 2);
    assert.deepEqual(ledger.hold, { pausedAt: 25 + STEP_GRACE_SECONDS * 2, heldSince: 25 + STEP_GRACE_SECONDS * 2 }, 'a new hold after a real run');
  });

  test('two debug sessions: held until both let go; each writes its own lines', () => {
    const ledger = new PauseLedger(() => ['web']);
    ledger.paused(DEBUG, 10);
    assert.equal(ledger.paused({ id: 'd2', name: 'worker.js' }, 12)[0]?.debugSession, 'worker.js');
    ledger.continued('d1', 15);
    assert.deepEqual(ledger.hold, { pausedAt: 12, heldSince: 10 });
    assert.equal(ledger.releaseAll(16).length, 1);
    assert.equal(ledger.hold, undefined);
  });

  test('W7, W9: the runs the countdown reads are followed from the worker line on; a new worker starts afresh', () => {
    const ledger = new PauseLedger(() => ['web']);
    ledger.mark(attempt(1, 5));
    assert.equal(ledger.seen('web', 'web', 'liveness'), undefined, 'no threshold known before the worker line');
    ledger.mark(WORKER);
    ledger.mark(attempt(10.001, 1, 'success'));
    ledger.mark(attempt(21, 1000));
    assert.deepEqual(ledger.seen('web', 'web', 'liveness'), { lastStart: 20, lastEnd: 21, lastCounted: 'failure', failures: 1, thresholds: [] });
    ledger.mark({ ...WORKER, t: 30 });
    assert.deepEqual(ledger.seen('web', 'web', 'liveness'), { lastStart: 20, lastEnd: 20, lastCounted: undefined, failures: 0, thresholds: [] }, 'afresh, its first tick at its start');
  });

  test('W3: a worker line alone gives the probe\'s ticks: a pause before its first attempt is counted on them', () => {
    const ledger = new PauseLedger(() => ['web']);
    ledger.mark({ ...WORKER, t: 0.5 });
    assert.equal(ledger.seen('web', 'web', 'liveness')?.lastStart, 0.5 - 10);
  });

  test('followed from what the session recorded when the guard comes in mid-session; following marks nothing', () => {
    const ledger = new PauseLedger(() => ['web']);
    ledger.paused(DEBUG, 10);
    for (const event of [WORKER, attempt(11, 1000), attempt(21, 1000)]) ledger.follow(event);
    assert.equal(ledger.seen('web', 'web', 'liveness')?.failures, 2);
  });
});

describe('which probing sessions a debug session holds', () => {
  const api = { manifestPath: '/repo/api/deploy/api.yaml' };
  const web = { manifestPath: '/repo/web/web.yaml' };
  test('exactly one running: that one, wherever the program is', () => {
    assert.deepEqual(sessionsHeldBy([api], ['/elsewhere']), [api]);
  });
  test('several: those whose manifest lies in the program\'s folders; none there: all', () => {
    assert.deepEqual(sessionsHeldBy([api, web], ['/repo/api']), [api]);
    assert.deepEqual(sessionsHeldBy([api, web], ['/repo']), [api, web]);
    assert.deepEqual(sessionsHeldBy([api, web], ['/elsewhere']), [api, web]);
    assert.deepEqual(sessionsHeldBy([api, web], []), [api, web]);
  });
  test('a folder holds the files under it, not its siblings with the same prefix', () => {
    assert.equal(contains('/repo/api', '/repo/api/x.yaml'), true);
    assert.equal(contains('/repo/api', '/repo/api-v2/x.yaml'), false);
    assert.equal(contains('', '/repo/x.yaml'), false);
  });
});

describe('the pause ledger without the worker line', () => {
  test('W7: the manifest\'s failureThreshold stands in when the worker line came before the ledger', () => {
    const ledger = new PauseLedger(() => ['web'], (pod, container, probe) => (pod === 'web' && container === 'web' && probe === 'liveness' ? 3 : undefined));
    ledger.mark(attempt(11, 1000));
    assert.equal(ledger.seen('web', 'web', 'liveness')?.failures, 1);
  });
});
