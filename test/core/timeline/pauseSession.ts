import type { EngineEvent } from '../../../src/core/engine/events';
import { simulated, webPod } from '../../helpers/engine';

/** Pod `web`, container `web`: liveness every 10 s (3 failures kill), readiness every 5 s. */
export const PAUSED_POD = webPod(`
livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}
readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 5}
`);

/** The debug session that held the program. */
export const DEBUG_SESSION = 'web (launch)';

/** When the debugger held the program: the probes fail from `from` until `to` (its `continued`). */
export const PAUSE = { from: 58, to: 79 } as const;

/**
 * A local session as the breakpoint guard records it (issue 12 §4): the app is healthy but for
 * 21 s at a breakpoint, from 58 s to 79 s, when its probes time out. Written by simulating the
 * failures at those times, then adding the `pause` lines and `paused: true` on every attempt that
 * ended meanwhile — as the extension does while a VS Code debug session pauses. Liveness gets to
 * 2/3 (not killed), readiness to not ready; both recover after. Cut before 79 s, it is still paused.
 */
export function pausedSession(seconds = 150): EngineEvent[] {
  const failing = `[{from: 0, outcome: success}, {from: ${PAUSE.from + 1}, outcome: failure}, {from: ${PAUSE.to}, outcome: success}]`;
  const events = simulated(PAUSED_POD, `containers: {web: {probes: {liveness: ${failing}, readiness: ${failing}}}}`, seconds);
  const marked = events.map((e): EngineEvent => (e.type === 'attempt' && e.t >= PAUSE.from && e.t <= PAUSE.to ? { ...e, paused: true } : e));
  return withPause(marked, 'web', PAUSE.from, seconds >= PAUSE.to ? PAUSE.to : undefined, DEBUG_SESSION);
}

/** `events` with a pod's `pause` lines at `from` (paused) and `to` (continued; none: still paused), each in its place in time. */
export function withPause(events: readonly EngineEvent[], pod: string, from: number, to: number | undefined, debugSession: string): EngineEvent[] {
  const out = [...events];
  const lines: [number, 'paused' | 'continued'][] = to === undefined ? [[from, 'paused']] : [[from, 'paused'], [to, 'continued']];
  for (const [t, state] of lines) {
    const at = out.findIndex((e) => e.t > t);
    out.splice(at < 0 ? out.length : at, 0, { type: 'pause', t, pod, state, debugSession });
  }
  return out;
}
