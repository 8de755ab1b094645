import { VirtualClock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import type { EventSink } from '../engine/events';
import { type DesiredPod, desiredPods, Manager, podRuntimes } from '../engine/manager';
import { seededRandom } from '../base/random';
import type { Manifest } from '../manifest';
import type { Scenario } from '../scenario/scenario';
import { SimulatedProcesses, SimulatedTarget } from './simulated';

export interface SimulationOptions {
  readonly scenario: Scenario;
  readonly durationSeconds: number;
  readonly seed: number;
  readonly emit: EventSink;
}

/**
 * Plays a manifest's pods against a scenario on a virtual clock: the pods and their containers
 * start at t = 0, and the run ends after `durationSeconds` of virtual time.
 */
export function simulate(manifest: Manifest, options: SimulationOptions): void {
  const simulation = startSimulation(desiredPods(manifest), options);
  try {
    simulation.advanceTo(options.durationSeconds);
  } finally {
    simulation.dispose();
  }
}

/** A simulation played in steps, so that its caller can stop between two (the CLI's Ctrl-C). */
export interface Simulation extends Disposable {
  /** Plays virtual time up to `seconds` since the start; steps give the same run as one call. */
  advanceTo(seconds: number): void;
}

/** Starts the manifest's pods (`desiredPods`, which the caller has already read) at t = 0. */
export function startSimulation(pods: readonly DesiredPod[], options: Omit<SimulationOptions, 'durationSeconds'>): Simulation {
  const clock = new VirtualClock();
  const target = new SimulatedTarget(options.scenario, clock);
  const manager = new Manager(podRuntimes({
    clock,
    epoch: 0,
    kubeletStartedAt: -options.scenario.kubeletStartedAgo * 1000,
    random: seededRandom(options.seed),
    target,
    processes: new SimulatedProcesses(options.scenario, clock),
    emit: options.emit,
    idScheme: 'sim',
  }));
  const dispose = () => {
    manager.dispose();
    target.dispose();
  };
  try {
    manager.sync(pods);
    if (options.scenario.deleteAfter !== undefined) for (const pod of manager.runtimes) pod.deleteAfter(options.scenario.deleteAfter * 1000);
  } catch (error) {
    dispose();
    throw error;
  }
  return { advanceTo: (seconds) => clock.advanceTo(seconds * 1000), dispose };
}
