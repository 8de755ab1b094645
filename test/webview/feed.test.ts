import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProbeLane } from '../../src/core/timeline/viewModel';
import { EventFeed } from '../../src/webview/timeline/model/feed';
import { simulated, webPod } from '../helpers/engine';

const MANIFEST = webPod('livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}\nreadinessProbe: {tcpSocket: {port: http}, periodSeconds: 5}');
const EVENTS = simulated(MANIFEST, 'containers: {web: {readyAfter: 20, failAfter: 60}}', 300);

const attempts = (feed: EventFeed) => (feed.model.lane('probe:web/web/liveness') as ProbeLane | undefined)?.attempts.length ?? 0;

test('live: appends grow the model; new lanes bump the structure, more events only the version', () => {
  const feed = new EventFeed(false);
  feed.reset(EVENTS.slice(0, 10), [], 1);
  const structure = feed.structure;
  const version = feed.version;
  const rest = EVENTS.slice(10);
  feed.append(rest, [], 300);
  assert.equal(feed.model.events.length, EVENTS.length);
  assert.ok(feed.version > version);
  assert.equal(feed.end, 300);
  assert.equal(feed.model.end, 300, 'open spans reach the source\'s now');
  const again = feed.structure;
  feed.append([], [], 310);
  assert.equal(feed.structure, again, 'no new lanes');
  assert.ok(structure <= again);
});

test('replay: the model holds events up to the playhead; seeking back rebuilds it, forward feeds it', () => {
  const feed = new EventFeed(true);
  feed.reset(EVENTS, [{ lane: 'probe:web/web/liveness', count: 3, throughT: 5 }], 300);
  const all = attempts(feed);
  assert.equal(feed.playhead, undefined);
  feed.seek(100);
  const at100 = attempts(feed);
  assert.ok(at100 > 0 && at100 < all, `${at100} of ${all}`);
  assert.ok(feed.model.events.every((e) => e.t <= 100));
  assert.equal(feed.model.end, 100);
  const structure = feed.structure;
  feed.seek(50);
  assert.ok(feed.structure > structure, 'going back rebuilds');
  assert.ok(attempts(feed) < at100);
  assert.deepEqual(feed.model.lane('probe:web/web/liveness')?.dropped, { count: 3, throughT: 5 }, 'dropped lanes are marked after a rebuild');
  feed.seek(200);
  assert.ok(attempts(feed) > at100);
  feed.seek(undefined);
  assert.equal(attempts(feed), all);
  assert.equal(feed.playhead, undefined);
  assert.equal(feed.received, EVENTS.length);
});

test('replay: events appended while the playhead is back wait for it', () => {
  const feed = new EventFeed(true);
  feed.reset(EVENTS.filter((e) => e.t <= 150), [], 150);
  feed.seek(100);
  const before = feed.model.events.length;
  feed.append(EVENTS.filter((e) => e.t > 150), [], 300);
  assert.equal(feed.model.events.length, before);
  feed.seek(undefined);
  assert.equal(feed.model.events.length, EVENTS.length);
});
