/**
 * The "why" in the editor's views, without an editor: a running session's containers explained
 * from its timeline store (indexed once per snapshot version, not per hover or row), and the
 * Probes view's container tooltip with the explanation in it. The views themselves run inside
 * VS Code (test/extension/suite/explain.vstest.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionSnapshot } from '../../src/core/session/snapshot';
import { explanationMarkdown, whyHeading } from '../../src/core/explain/explainMarkdown';
import { TimelineStore } from '../../src/core/timeline/store';
import { type ExplainableSession, SessionExplanations } from '../../src/extension/sessions/sessionExplanations';
import { presentContainer } from '../../src/extension/tree/format';
import { webPod } from '../helpers/engine';
import { sessionRun } from '../core/session/sessionRun';

/** A simulated session as the extension keeps one: its events in a timeline store, its published snapshot. */
function session() {
  const run = sessionRun(webPod('readinessProbe: {httpGet: {path: /metrics, port: metrics}, periodSeconds: 10}'), '');
  const store = new TimelineStore();
  let reads = 0;
  const events = store.events.bind(store);
  store.events = () => {
    reads++;
    return events();
  };
  let state: SessionSnapshot = run.now();
  const explainable: ExplainableSession = {
    kind: 'simulated',
    isVirtual: true,
    startedAt: 0,
    events: store,
    get state() {
      return state;
    },
  };
  let pushed = 0;
  const play = (seconds: number) => {
    state = run.at(seconds);
    for (const event of run.events.slice(pushed)) store.push(event);
    pushed = run.events.length;
  };
  return { explainable, play, reads: () => reads, dispose: () => run.dispose(), snapshot: () => state };
}

test('a session is indexed once per snapshot version, however many ask; a row may be answered from an older one', () => {
  const s = session();
  try {
    const explanations = new SessionExplanations();
    s.play(30);
    const first = explanations.explain(s.explainable, 'web', 'web');
    assert.equal(first?.sentence, "Never probed: the readiness probe's named port `metrics` is not declared by this container (prober error, discarded each period).");
    assert.equal(first?.t, 30);
    for (let i = 0; i < 5; i++) explanations.explain(s.explainable, 'web', 'web');
    assert.equal(s.reads(), 1, 'five more hovers, one index');
    s.play(40);
    assert.equal(explanations.explain(s.explainable, 'web', 'web', { maxAgeMs: 5_000 })?.t, 30, 'a row redrawn within 5 s: the index before');
    assert.equal(s.reads(), 1);
    assert.equal(explanations.explain(s.explainable, 'web', 'web')?.t, 40, 'a hover: the snapshot now');
    assert.equal(s.reads(), 2);
    assert.equal(explanations.explain(s.explainable, 'web', 'nope'), undefined);
  } finally {
    s.dispose();
  }
});

test('the Probes view\'s container tooltip says why, code kept as code, the rest escaped', () => {
  const s = session();
  try {
    s.play(30);
    const why = new SessionExplanations().explain(s.explainable, 'web', 'web');
    assert.ok(why);
    const row = presentContainer('web', s.snapshot().pods.get('web')?.containers.get('web'), 'carried-out', why);
    assert.match(row.tooltip.markdown, /\n\n\*\*Why\*\*\n\nNever probed: the readiness probe's named port `metrics` is not declared by this container \\\(prober error, discarded each period\\\)\\\.\n\n- Every readiness attempt on this container errored .* \*\(never-probed-prober-error, \d+ lines\)\*\n\n/);
    assert.equal(presentContainer('web', s.snapshot().pods.get('web')?.containers.get('web'), 'carried-out').tooltip.markdown.includes('**Why**'), false, 'no explanation, no section');
    assert.equal(whyHeading(why), '**Why `web` is not Ready**');
    assert.ok(explanationMarkdown(why, whyHeading(why)).startsWith('**Why `web` is not Ready**\n\nNever probed'));
  } finally {
    s.dispose();
  }
});
