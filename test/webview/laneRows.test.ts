import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Layout } from '../../src/webview/timeline/model/layout';
import { EventFeed } from '../../src/webview/timeline/model/feed';
import { LaneFilters } from '../../src/webview/timeline/model/laneFilters';
import { LaneRows } from '../../src/webview/timeline/model/laneRows';
import { revealMessage } from '../../src/webview/timeline/model/reveal';
import { simulated, webPod } from '../helpers/engine';

const EVENTS = simulated(webPod('livenessProbe: {httpGet: {path: /healthz, port: 8080}}\nreadinessProbe: {tcpSocket: {port: http}}'), '', 120);

test('rows are laid out again when lanes come or filters or highlights change — not for every event', () => {
  const firstAttempt = EVENTS.findIndex((e) => e.type === 'attempt');
  const feed = new EventFeed(false);
  feed.reset(EVENTS.slice(0, firstAttempt), [], 0);
  const filters = new LaneFilters();
  const layouts: Layout[] = [];
  const rows = new LaneRows(filters, (layout) => layouts.push(layout));
  const first = rows.update(feed);
  assert.equal(layouts.length, 1);
  assert.equal(rows.update(feed), first, 'nothing changed: the same layout');
  feed.append(EVENTS.slice(firstAttempt, firstAttempt + 3), [], 30);
  rows.update(feed);
  assert.equal(layouts.length, 1, 'attempts on the lanes there are');
  feed.append(EVENTS.slice(firstAttempt + 3), [], 120);
  const lanes = rows.update(feed).rows.length;
  assert.equal(lanes, 4, 'pod, container, two probes');
  filters.toggleProbe('readiness');
  rows.invalidate();
  const laidOut = layouts.length;
  assert.equal(rows.update(feed).rows.length, lanes - 1);
  rows.highlight(['probe:web/web/liveness']);
  assert.equal(rows.update(feed).rows.find((r) => r.highlighted)?.lane.id, 'probe:web/web/liveness');
  assert.equal(rows.firstHighlighted()?.lane.id, 'probe:web/web/liveness');
  assert.equal(layouts.length, laidOut + 2, 'once for the filter, once for the highlight');
});

test('a click reveals the probe, the container, or a pod\'s first container', () => {
  const feed = new EventFeed(false);
  feed.reset(EVENTS, [], 120);
  const byId = new LaneRows(new LaneFilters(), () => undefined).update(feed).byId;
  const lane = (id: string) => byId.get(id)?.lane;
  assert.deepEqual(revealMessage(lane('probe:web/web/liveness') as never), { type: 'reveal', protocol: 1, pod: 'web', container: 'web', probe: 'liveness' });
  assert.deepEqual(revealMessage(lane('container:web/web') as never), { type: 'reveal', protocol: 1, pod: 'web', container: 'web' });
  assert.deepEqual(revealMessage(lane('pod:web') as never), { type: 'reveal', protocol: 1, pod: 'web', container: 'web' });
});
