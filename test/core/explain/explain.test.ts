/**
 * Why a container is in its state (issue 12 §1), over real engine runs: a manifest and a scenario
 * simulated on the virtual clock, explained at a chosen moment. Every reason the engine can
 * produce has its row, with its sentence exactly; every explanation's evidence points at lines
 * that are what its cause says they are. (Sessions — prober errors, the debugger, local and
 * cluster runs — are in explainSessions.test.ts.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { desiredPods } from '../../../src/core/engine/manager';
import { type Explanation, explainContainer } from '../../../src/core/explain/explain';
import { buildHistory } from '../../../src/core/history/history';
import { timeFormatFor } from '../../../src/core/history/timeFormat';
import { parseManifest } from '../../../src/core/manifest';
import { webPod } from '../../helpers/engine';
import { assertCitesItsLines, explain, LIVENESS, LIVENESS_FAILS_AT_40, READINESS, READINESS_FAILS_AT_60, simulated, STARTUP, WITH_INIT, WITH_STARTUP } from './explainRuns';

interface Row {
  /** The reason this row is for: it is among the causes. */
  readonly reason: string;
  readonly yaml: string;
  readonly scenario?: string;
  /** Seconds simulated; the history reaches past the moment explained. */
  readonly until: number;
  readonly at: number;
  readonly container?: string;
  readonly wall?: boolean;
  readonly state: Explanation['state'];
  readonly sentence: string;
  readonly reasons: readonly string[];
}

const ROWS: readonly Row[] = [
  // ---- ready
  { reason: 'ready', yaml: webPod(`${READINESS}\n${LIVENESS}`), until: 60, at: 30, state: 'ready', sentence: 'Ready since t+00:00:00: readiness succeeded at t+00:00:00 (successThreshold 1).', reasons: ['ready'] },
  { reason: 'ready', yaml: webPod(LIVENESS), until: 60, at: 30, state: 'ready', sentence: 'Ready since t+00:00:00: it has no readiness probe, so it is Ready once started.', reasons: ['ready'] },
  { reason: 'started', yaml: WITH_STARTUP, scenario: LIVENESS_FAILS_AT_40, until: 60, at: 30, wall: true, state: 'ready', sentence: 'Ready since 12:00:20: readiness succeeded at 12:00:20 (successThreshold 1).', reasons: ['ready', 'started'] },
  { reason: 'warning', yaml: webPod(READINESS), scenario: 'containers:\n  web:\n    probes:\n      readiness: [{from: 0, outcome: warning}]', until: 60, at: 30, state: 'ready', sentence: 'Ready since t+00:00:00: readiness succeeded at t+00:00:00 (successThreshold 1).', reasons: ['ready', 'warning'] },
  // ---- readiness (W2, W7, W8)
  { reason: 'readiness-below-threshold', yaml: webPod(`${READINESS}\n${LIVENESS}`), scenario: READINESS_FAILS_AT_60, until: 200, at: 75, state: 'ready', sentence: 'Ready, but readiness failed 2 of 3 times in a row (HTTP 503 at t+00:01:00, :10): one more failure (the next attempt is due at t+00:01:20) and it goes Not Ready.', reasons: ['readiness-below-threshold', 'ready'] },
  { reason: 'readiness-failing', yaml: webPod(`${READINESS}\n${LIVENESS}`), scenario: READINESS_FAILS_AT_60, until: 200, at: 95, state: 'not-ready', sentence: 'Not Ready since t+00:01:20: readiness failed 3 times in a row (HTTP 503 at t+00:01:00, :10, :20; failureThreshold 3), and twice more since.', reasons: ['readiness-failing'] },
  // The example, on the wall clock; the failure's pod sync probes again at once (W13): once more since.
  { reason: 'readiness-failing', yaml: webPod(`${READINESS}\n${LIVENESS}`), scenario: 'containers:\n  web:\n    probes:\n      readiness: [{from: 0, outcome: success}, {from: 200, outcome: failure}]', until: 300, at: 220, wall: true, state: 'not-ready', sentence: 'Not Ready since 12:03:40: readiness failed 3 times in a row (HTTP 503 at 12:03:20, :30, :40; failureThreshold 3), and once more since.', reasons: ['readiness-failing'] },
  { reason: 'readiness-not-yet', yaml: webPod(READINESS), scenario: 'containers:\n  web: {readyAfter: 45}', until: 100, at: 35, state: 'not-ready', sentence: 'Not Ready: readiness has not succeeded on this container yet: it failed 5 times (connection refused at t+00:00:00, :00, :10, :20, :30).', reasons: ['readiness-not-yet'] },
  { reason: 'success-threshold', yaml: webPod('readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 10, successThreshold: 3}'), scenario: 'containers:\n  web: {readyAfter: 15}', until: 100, at: 25, state: 'not-ready', sentence: 'Not Ready: readiness succeeded once (at t+00:00:20), and its successThreshold is 3: 2 more in a row make it Ready.', reasons: ['success-threshold'] },
  { reason: 'ready', yaml: webPod('readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 10, successThreshold: 3}'), scenario: 'containers:\n  web: {readyAfter: 15}', until: 100, at: 45, state: 'ready', sentence: 'Ready since t+00:00:40: readiness succeeded 3 times in a row at t+00:00:20, :30, :40 (successThreshold 3).', reasons: ['ready'] },
  { reason: 'initial-delay', yaml: webPod('readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 10, initialDelaySeconds: 30}'), until: 100, at: 15, state: 'not-ready', sentence: 'Not Ready: readiness waits out its initialDelaySeconds (30 s, until t+00:00:30) before its first attempt.', reasons: ['initial-delay'] },
  { reason: 'waiting-for-readiness', yaml: webPod('readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 10, initialDelaySeconds: 15}'), until: 100, at: 17, state: 'not-ready', sentence: 'Not Ready: readiness has not run yet on this container (it started at t+00:00:00; periodSeconds 10).', reasons: ['waiting-for-readiness'] },
  // ---- prober errors (P5)
  { reason: 'never-probed-prober-error', yaml: webPod(`readinessProbe: {httpGet: {path: /metrics, port: metrics}, periodSeconds: 10}\n${LIVENESS}`), until: 100, at: 30, state: 'not-ready', sentence: "Never probed: the readiness probe's named port `metrics` is not declared by this container (prober error, discarded each period).", reasons: ['never-probed-prober-error'] },
  { reason: 'never-probed-prober-error', yaml: webPod(`${READINESS}\nlivenessProbe: {tcpSocket: {port: admin}, periodSeconds: 10}`), until: 100, at: 30, state: 'ready', sentence: 'Ready since t+00:00:00: readiness succeeded at t+00:00:00 (successThreshold 1).', reasons: ['ready', 'never-probed-prober-error'] },
  // ---- startup (W5 step 9, §C budget)
  { reason: 'waiting-for-startup', yaml: webPod(`${STARTUP}\n${READINESS}\n${LIVENESS}`), scenario: 'containers:\n  web: {readyAfter: 1000}', until: 200, at: 5, wall: true, state: 'not-started', sentence: 'Not started: startupProbe has not passed yet on this container (it started at 12:00:00); readiness and liveness wait until it succeeds.', reasons: ['waiting-for-startup'] },
  { reason: 'startup-budget', yaml: webPod(`${STARTUP}\n${READINESS}\n${LIVENESS}`), scenario: 'containers:\n  web: {readyAfter: 1000}', until: 200, at: 180, wall: true, state: 'not-started', sentence: 'Not started: startupProbe has used 180 s of its 300 s budget (18/30 failures); it will be killed at 12:05:00 if it keeps failing.', reasons: ['startup-budget'] },
  { reason: 'startup-restarts', yaml: webPod(`startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}\n${READINESS}`, 'terminationGracePeriodSeconds: 5'), scenario: 'containers:\n  web: {readyAfter: 1000, stopAfter: 1}', until: 300, at: 65, state: 'back-off', sentence: 'Stopped twice: each time startupProbe failed 3× (connection refused), using up its 30 s budget; now waiting out back-off (10 s, until t+00:01:11).', reasons: ['startup-restarts', 'back-off'] },
  // ---- liveness (K2–K4) and CrashLoopBackOff (B2)
  { reason: 'liveness-below-threshold', yaml: WITH_STARTUP, scenario: LIVENESS_FAILS_AT_40, until: 600, at: 55, wall: true, state: 'ready', sentence: 'Ready, but liveness failed 2 of 3 times in a row (connection refused at 12:00:40, :50): one more failure (the next attempt is due at 12:01:00) and the kubelet kills it.', reasons: ['liveness-below-threshold', 'ready', 'started'] },
  { reason: 'killing', yaml: webPod(`${READINESS}\n${LIVENESS}`), scenario: 'containers:\n  web: {readyAfter: 0, failAfter: 20}', until: 200, at: 50, state: 'restarting', sentence: 'Restarting since t+00:00:41: liveness failed 3 times in a row (timeout at t+00:00:21, :31, :41; failureThreshold 3).', reasons: ['killing'] },
  { reason: 'liveness-restarts', yaml: WITH_STARTUP, scenario: LIVENESS_FAILS_AT_40, until: 600, at: 300, wall: true, state: 'back-off', sentence: 'Restarted 3 times: each time liveness failed 3× (connection refused) 20 s after startup succeeded; now waiting out back-off (40 s, until 12:05:10).', reasons: ['liveness-restarts', 'back-off'] },
  { reason: 'exit-restarts', yaml: webPod(READINESS), scenario: 'containers:\n  web: {exitAfter: 30}', until: 300, at: 100, state: 'back-off', sentence: 'Restarted twice: each time its process exited by itself (Error) 30 s after it started; now waiting out back-off (20 s, until t+00:02:00).', reasons: ['exit-restarts', 'back-off'] },
  // ---- terminated: restartPolicy, deletion (A5)
  { reason: 'exited', yaml: webPod(READINESS, 'restartPolicy: Never'), scenario: 'containers:\n  web: {exitAfter: 60}', until: 100, at: 80, state: 'terminated', sentence: 'Exited at t+00:01:00: its process ended by itself (Error) after 60 s, and restartPolicy Never keeps it down.', reasons: ['exited'] },
  { reason: 'completed', yaml: webPod(READINESS, 'restartPolicy: OnFailure'), scenario: 'containers:\n  web: {exitAfter: 30, exitCode: 0}', until: 100, at: 45, state: 'completed', sentence: 'Completed at t+00:00:30: its process exited with code 0 after 30 s, and it is not restarted.', reasons: ['completed'] },
  { reason: 'killing', yaml: webPod(`${READINESS}\n${LIVENESS}`, 'restartPolicy: Never'), scenario: 'containers:\n  web: {readyAfter: 0, failAfter: 20}', until: 200, at: 50, state: 'stopping', sentence: 'Stopping since t+00:00:41: liveness failed 3 times in a row (timeout at t+00:00:21, :31, :41; failureThreshold 3), and restartPolicy Never keeps it down.', reasons: ['killing'] },
  { reason: 'killed', yaml: webPod(`${READINESS}\n${LIVENESS}`, 'restartPolicy: Never'), scenario: 'containers:\n  web: {readyAfter: 0, failAfter: 20}', until: 200, at: 90, state: 'terminated', sentence: 'Stopped at t+00:01:11: liveness failed 3 times in a row (timeout at t+00:00:21, :31, :41; failureThreshold 3), and restartPolicy Never keeps it down.', reasons: ['killed'] },
  { reason: 'deleting', yaml: webPod(`${READINESS}\n${LIVENESS}`), scenario: 'pod: {deleteAfter: 100}', until: 200, at: 110, state: 'stopping', sentence: "Stopping since t+00:01:40: its pod is being deleted, and the container has the pod's grace period to exit.", reasons: ['deleting'] },
  { reason: 'deleted', yaml: webPod(`${READINESS}\n${LIVENESS}`), scenario: 'pod: {deleteAfter: 100}', until: 200, at: 140, state: 'terminated', sentence: 'Stopped at t+00:02:10: its pod was deleted at t+00:01:40.', reasons: ['deleted'] },
  // ---- init containers (I1–I4, S3)
  { reason: 'init-containers', yaml: WITH_INIT(), scenario: 'containers:\n  migrate: {exitAfter: 20}', until: 100, at: 10, state: 'initializing', sentence: 'Waiting for init container `migrate`: it has been running since t+00:00:00.', reasons: ['init-containers'] },
  { reason: 'init-running', yaml: WITH_INIT(), scenario: 'containers:\n  migrate: {exitAfter: 20}', until: 100, at: 10, container: 'migrate', state: 'not-ready', sentence: 'Running since t+00:00:00: an init container counts as ready only once it has completed (exit 0).', reasons: ['init-running'] },
  { reason: 'completed', yaml: WITH_INIT(), scenario: 'containers:\n  migrate: {exitAfter: 20}', until: 100, at: 30, container: 'migrate', state: 'completed', sentence: 'Completed at t+00:00:20: its process exited with code 0 after 20 s, and it is not restarted.', reasons: ['completed'] },
  { reason: 'init-containers', yaml: WITH_INIT(), scenario: 'containers:\n  migrate: {exitAfter: 20, exitCode: 1}', until: 100, at: 45, state: 'initializing', sentence: 'Waiting for init container `migrate`: it failed twice and waits out back-off (10 s, until t+00:00:50).', reasons: ['init-containers'] },
  { reason: 'init-failed', yaml: WITH_INIT('restartPolicy: Never'), scenario: 'containers:\n  migrate: {exitAfter: 20, exitCode: 1}', until: 100, at: 45, state: 'initializing', sentence: 'Never starts: init container `migrate` exited with an error at t+00:00:20, and restartPolicy Never does not restart it: the pod failed.', reasons: ['init-failed'] },
  { reason: 'deleting', yaml: WITH_INIT(), scenario: 'containers:\n  migrate: {exitAfter: 200}\npod: {deleteAfter: 30}', until: 100, at: 45, state: 'initializing', sentence: 'Never starts: its pod is being deleted since t+00:00:30, before its init containers completed.', reasons: ['deleting'] },
];

for (const row of ROWS) {
  test(`${row.reason}: ${row.sentence}`, () => {
    const recording = simulated(row.yaml, row.scenario ?? '', row.until, row.wall);
    const pod = desiredPods(parseManifest(row.yaml))[0]?.identity.name ?? 'web';
    const explanation = explain(recording, pod, row.container ?? 'web', row.at);
    assert.equal(explanation.sentence, row.sentence);
    assert.equal(explanation.state, row.state);
    assert.deepEqual(
      explanation.causes.map((c) => c.reason),
      row.reasons,
    );
    assert.ok(row.reasons.includes(row.reason));
    assertCitesItsLines(recording.events, explanation);
    // Cut at the moment, the history says the same (the CLI's `--at` reads no further).
    const cut = buildHistory(recording.header, recording.events, { until: row.at });
    assert.deepEqual(explainContainer(cut, pod, row.container ?? 'web', row.at, timeFormatFor(cut.startedAtMs)), explanation);
  });
}
