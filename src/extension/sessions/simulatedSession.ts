import { VirtualClock } from '../../core/base/clock';
import { seededRandom } from '../../core/base/random';
import type { ManifestSnapshot } from '../../core/editor/incrementalChecker';
import type { Scenario } from '../../core/scenario/scenario';
import { Playback } from '../../core/session/playback';
import { SimulatedProcesses, SimulatedTarget } from '../../core/targets/simulated';
import { ProbingSession, type SessionOptions } from './probingSession';

export interface SimulationSettings {
  readonly scenario: Scenario;
  /** Virtual seconds per real second: 1, 10, 60, 600… */
  readonly speed: number;
  readonly seed: number;
}

/**
 * A simulated session, as `probe-lens simulate` runs it but played live: the pods start at t = 0
 * on a virtual clock played at `speed` (paused, sped up or stepped by the user), a scenario
 * answers the probes and scripts the processes, and restarts are the kubelet's. Started and
 * synced with `snapshot`; the pod deletion of the scenario (A5), if any, is scheduled for the
 * pods it starts with.
 */
export function startSimulatedSession(options: Omit<SessionOptions, 'kind'>, snapshot: ManifestSnapshot, simulation: SimulationSettings): ProbingSession {
  const { scenario } = simulation;
  const clock = new VirtualClock();
  const session = new ProbingSession(
    { ...options, kind: 'simulated' },
    {
      clock,
      epoch: 0,
      kubeletStartedAt: -scenario.kubeletStartedAgo * 1000,
      random: seededRandom(simulation.seed),
      target: new SimulatedTarget(scenario, clock),
      processes: new SimulatedProcesses(scenario, clock),
      idScheme: 'sim',
      owned: [],
      playback: new Playback(clock, simulation.speed),
    },
  );
  session.sync(snapshot);
  if (scenario.deleteAfter !== undefined) for (const runtime of session.runtimes) runtime.deleteAfter(scenario.deleteAfter * 1000);
  return session;
}
