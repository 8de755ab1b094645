import { VirtualClock } from '../../core/engine/clock';
import type { Disposable } from '../../core/engine/disposable';
import { seededRandom } from '../../core/engine/random';
import type { ManifestSnapshot } from '../../core/editing/incrementalChecker';
import type { Scenario } from '../../core/scenario/scenario';
import { SimulatedProcesses, SimulatedTarget } from '../../core/targets/simulated';
import { ProbingSession, type SessionOptions } from './probingSession';

/** Real milliseconds between two advances of a simulation's clock. */
const TICK_MS = 100;
/** A tick never plays more than this much real time (a stalled extension host does not make a simulation lurch). */
const MAX_TICK_MS = 1000;

export interface SimulationSettings {
  readonly scenario: Scenario;
  /** Virtual seconds per real second: 1, 10, 60, 600… */
  readonly speed: number;
  readonly seed: number;
}

/**
 * Plays the virtual clock at `speed` times real time. Its one interval timer goes with `dispose()`.
 */
class SimulationTicker implements Disposable {
  private last = performance.now();
  private readonly handle: NodeJS.Timeout;

  constructor(
    private readonly clock: VirtualClock,
    private readonly speed: number,
  ) {
    this.handle = setInterval(() => this.tick(), TICK_MS);
  }

  private tick(): void {
    const now = performance.now();
    const real = Math.min(MAX_TICK_MS, now - this.last);
    this.last = now;
    this.clock.advanceBy(real * this.speed);
  }

  dispose(): void {
    clearInterval(this.handle);
  }
}

/**
 * A simulated session, as `probe-lens simulate` runs it but played live: the pods start at t = 0
 * on a virtual clock, a scenario answers the probes and scripts the processes, and restarts are
 * the kubelet's. Started and synced with `snapshot`; the pod deletion of the scenario (A5), if any,
 * is scheduled for the pods it starts with.
 */
export function startSimulatedSession(options: Omit<SessionOptions, 'kind'>, snapshot: ManifestSnapshot, simulation: SimulationSettings): ProbingSession {
  const { scenario } = simulation;
  const clock = new VirtualClock();
  const session = new ProbingSession(
    { ...options, kind: 'simulated', rate: simulation.speed },
    {
      clock,
      epoch: 0,
      kubeletStartedAt: -scenario.kubeletStartedAgo * 1000,
      random: seededRandom(simulation.seed),
      target: new SimulatedTarget(scenario, clock),
      processes: new SimulatedProcesses(scenario, clock),
      idScheme: 'sim',
      owned: [new SimulationTicker(clock, simulation.speed)],
    },
  );
  session.sync(snapshot);
  if (scenario.deleteAfter !== undefined) for (const runtime of session.runtimes) runtime.deleteAfter(scenario.deleteAfter * 1000);
  return session;
}
