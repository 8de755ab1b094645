/**
 * A simulation folded into a `SessionState` on a virtual clock, as a session in the editor runs
 * one: `carried-out` kills with the scenario's processes, or `reported` kills with processes only
 * observed (a local or cluster session), the probes still answered by the scenario.
 */
import { VirtualClock } from '../../../src/core/base/clock';
import type { EngineEvent } from '../../../src/core/engine/events';
import { desiredPods, Manager, podRuntimes } from '../../../src/core/engine/manager';
import { seededRandom } from '../../../src/core/base/random';
import { parseManifest } from '../../../src/core/manifest';
import type { KillMode, SessionSnapshot } from '../../../src/core/session/snapshot';
import { SessionState } from '../../../src/core/session/state';
import { ObservedProcesses } from '../../../src/core/targets/local';
import { SimulatedProcesses, SimulatedTarget } from '../../../src/core/targets/simulated';
import { scenario } from '../../helpers/engine';

export interface SessionRun {
  readonly clock: VirtualClock;
  readonly state: SessionState;
  readonly events: EngineEvent[];
  /** Plays to `seconds` and takes a snapshot there. */
  at(seconds: number): SessionSnapshot;
  /** A snapshot now, without playing. */
  now(): SessionSnapshot;
  dispose(): void;
}

export function sessionRun(yaml: string, scenarioText: string, kills: KillMode = 'carried-out'): SessionRun {
  const clock = new VirtualClock();
  const state = new SessionState(kills);
  const events: EngineEvent[] = [];
  const script = scenario(scenarioText);
  const target = new SimulatedTarget(script, clock);
  const processes = kills === 'carried-out' ? new SimulatedProcesses(script, clock) : new ObservedProcesses();
  const manager = new Manager(podRuntimes({
    clock,
    epoch: 0,
    kubeletStartedAt: -3_600_000,
    random: seededRandom(1),
    target,
    processes,
    emit: (event) => {
      events.push(event);
      state.apply(event);
    },
    idScheme: 'sim',
  }));
  manager.sync(desiredPods(parseManifest(yaml)));
  const now = () => state.snapshot({ t: clock.now() / 1000, clock: { kind: 'virtual', paused: false, speed: 1 } });
  return {
    clock,
    state,
    events,
    at: (seconds) => {
      clock.advanceTo(seconds * 1000);
      return now();
    },
    now,
    dispose: () => {
      manager.dispose();
      target.dispose();
    },
  };
}
