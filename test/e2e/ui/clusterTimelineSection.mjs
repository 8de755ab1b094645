// The "Cluster timeline" section of the UI test: a cluster session's recording (written by
// ui/clusterRecording.mjs as `probe-lens run --target cluster --format jsonl` writes one), opened
// as a user does (Probe Lens: Open Timeline from File…). What is asserted is what a user sees: the
// kubelet's own Ready as a band under ours, the cluster's events, the disagreement and its cause,
// our predicted kills and how they ended, the cluster pod probed — each in a tooltip that says
// whose verdict it is. Takes docs/images/timeline-cluster.png.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLUSTER_LANES, clusterRecordingLines, clusterRecordingText, CONFIRMED_PREDICTION, DISAGREEMENT } from './clusterRecording.mjs';
import { hoverTooltip, openTimelineFromFile } from './timelineSteps.mjs';
import { timelineFrame, timelineState } from './workbench.mjs';

const RECORDING = 'recordings/web-cluster.jsonl';

/**
 * `screenshot(workbench, name, options)`: uiTest.mjs's (no toasts, the mouse parked unless
 * `keepMouse`, into its images directory).
 */
export async function clusterTimelineSection({ page, workbench, folder, section, step, screenshot }) {
  await section('Cluster timeline');
  const events = clusterRecordingLines().length - 1;
  let timeline;
  const state = () => timelineState(timeline);
  /** Points at the `kind` item of `laneId` at `t` and returns the tooltip once it says `expected`. */
  const hover = (laneId, kind, t, expected) =>
    hoverTooltip(page, timeline, () => timeline.evaluate(([lane, k, time]) => window.__probeLensTimeline.itemAt(lane, k, time), [laneId, kind, t]), expected, `the ${kind} of ${laneId} at t=${t}`);

  await step('Probe Lens: Open Timeline from File… opens a cluster session\'s recording', async () => {
    mkdirSync(join(folder, 'recordings'), { recursive: true });
    writeFileSync(join(folder, RECORDING), clusterRecordingText());
    await workbench.runCommand('View: Close All Editors');
    // Room for the timeline: the side bar closed (the palette offers the command only while it is open).
    if (await page.locator('.part.sidebar').isVisible()) await workbench.runCommand('View: Close Primary Side Bar');
    await openTimelineFromFile(workbench, join(folder, RECORDING));
    timeline = await timelineFrame(page, { accept: (s) => s.painted > 0 && s.events === events, what: `the cluster recording's ${events} events`, timeout: 30_000 });
    await workbench.parkMouse();
  });

  await step('the kubelet\'s own Ready is a band of its own under ours, for the container and the pod; every line was read', async () => {
    const shown = await state();
    assert.deepEqual(shown.lanes.map((lane) => lane.id), CLUSTER_LANES);
    assert.equal(shown.note, '', 'no line of the recording skipped');
    const [pod, container, readiness] = shown.lanes;
    // Taller than a local session's (26 and 30 px): the cluster's band is under ours.
    assert.ok(pod.height > 26 && container.height > 30 && readiness.height === 38, JSON.stringify(shown.lanes));
    const web = shown.cluster['container:web/web'];
    assert.deepEqual(
      web.kubelet.map((s) => `${s.start}-${s.end ?? '…'} ${s.ready ? 'Ready' : 'not ready'}`),
      ['0-8 not ready', '8-62 Ready', '62-140 not ready', '140-203 Ready', '203-205 not ready', '205-212 not ready', '212-345 Ready', '345-354 not ready', '354-… Ready'],
    );
    assert.deepEqual(shown.cluster['pod:web'].kubelet.map((s) => s.ready), [false, true, false, true, false, true, false, true]);
    assert.deepEqual(web.disagreements, [{ start: DISAGREEMENT.open, end: DISAGREEMENT.resolved, cause: 'loopback-only' }]);
    assert.deepEqual(web.predictions, ['pending', 'confirmed', 'pending', 'missed']);
    assert.ok(web.events.includes('Unhealthy×15') && web.events.includes('Killing×1'), JSON.stringify(web.events));
    assert.deepEqual(shown.cluster['pod:web'].targets, ['web-7d9f8c-x2kqp', 'web-7d9f8c-m8rtz']);
    // A rollout's new pod is not a restart of the container: the one restart is the kill the cluster made.
    assert.deepEqual(shown.containers['container:web/web'].restarts.map((r) => r.restartCount), [1]);
    assert.equal(await timeline.locator('#timeline-legend-cluster').isVisible(), true, 'the legend\'s Cluster group');
  });

  await step('tooltips say whose verdict it is: the kubelet\'s Ready, ours, the cluster\'s event and its count, the pod probed', async () => {
    await hover('container:web/web', 'kubelet', 30, /^Ready by the cluster's kubelet · web\/web/);
    const event = await hover('container:web/web', 'clusterEvent', 128, /the cluster's event/);
    assert.match(event, /^Unhealthy \(Warning\) · the cluster's event · web\/web/);
    assert.match(event, /seen 15 times by the cluster/);
    const target = await hover('pod:web', 'target', 345, /^Probing web-7d9f8c-m8rtz/);
    assert.match(target, /was web-7d9f8c-x2kqp: the cluster replaced the pod/);
    const prediction = await hover('container:web/web', 'prediction', CONFIRMED_PREDICTION.pending, /^Predicted kill/);
    assert.match(prediction, /then confirmed at .*: the cluster restarted web \(restart 1\)/);
  });

  await step('the disagreement: hovered, it says both verdicts and the likely cause (loopback-only); screenshot docs/images/timeline-cluster.png', async () => {
    const tip = await hover('container:web/web', 'disagreement', (DISAGREEMENT.open + DISAGREEMENT.resolved) / 2, /^Our probes and the kubelet disagree/);
    assert.match(tip, /our probes: Ready · the kubelet: not ready/);
    assert.match(tip, /likely cause: loopback-only/);
    assert.match(tip, /listens on 127\.0\.0\.1 only/);
    await screenshot(workbench, 'timeline-cluster.png', { keepMouse: true });
  });
}
