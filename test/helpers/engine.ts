import assert from 'node:assert/strict';
import { VirtualClock } from '../../src/core/base/clock';
import type { EngineEvent } from '../../src/core/engine/events';
import { desiredPods } from '../../src/core/engine/manager';
import { PodRuntime } from '../../src/core/engine/podRuntime';
import type { ContainerProcesses, ProbeTarget } from '../../src/core/engine/target';
import { parseManifest } from '../../src/core/manifest';
import { parseScenario } from '../../src/core/scenario/parse';
import type { Scenario } from '../../src/core/scenario/scenario';
import { simulate } from '../../src/core/targets/simulation';
import { SimulatedProcesses, SimulatedTarget } from '../../src/core/targets/simulated';

/** A Pod whose only container `web` (port 8080 named `http`) has the given probes, one flow-style line each. */
export function webPod(probes: string, podFields = ''): string {
  const lines = (text: string, spaces: number) =>
    text
      .trim()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => `${' '.repeat(spaces)}${line.trim()}`);
  return [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: web',
    'spec:',
    ...lines(podFields, 2),
    '  containers:',
    '    - name: web',
    '      image: nginx',
    '      ports: [{name: http, containerPort: 8080}]',
    ...lines(probes, 6),
    '',
  ].join('\n');
}

/** A Pod named `name` with the given YAML under `spec:` (flow style welcome). */
export function podManifest(specFields: string, name = 'web'): string {
  const body = specFields
    .trim()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
  return `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n${body}\n`;
}

/** `probe-lens simulate`: the whole event stream of a run. */
export function simulated(yaml: string, scenarioText: string, seconds: number, seed = 1): EngineEvent[] {
  const events: EngineEvent[] = [];
  simulate(parseManifest(yaml), { scenario: scenario(scenarioText), durationSeconds: seconds, seed, emit: (e) => events.push(e) });
  return events;
}

/** The kubelet's events (`Killing`, `BackOff`, …) as `t message`, of one reason. */
export function kubeletEventLines(events: readonly EngineEvent[], reason: string): string[] {
  return only(events, 'event')
    .filter((e) => e.reason === reason)
    .map((e) => `${e.t} ${e.message}`);
}

/** Start times (s) of a container's attempts of one probe; an attempt line is stamped when it ends. */
export function attemptStartTimes(events: readonly EngineEvent[], container: string, probe: string): number[] {
  return only(events, 'attempt', container)
    .filter((e) => e.probe === probe)
    .map((e) => Math.round(e.t * 1000 - e.durationMs) / 1000);
}

export function scenario(text: string): Scenario {
  const parsed = parseScenario(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.scenario;
}

export type Of<T extends EngineEvent['type']> = Extract<EngineEvent, { type: T }>;

export function only<T extends EngineEvent['type']>(events: readonly EngineEvent[], type: T, container?: string): Of<T>[] {
  return events.filter((e): e is Of<T> => e.type === type && (container === undefined || ('container' in e && e.container === container)));
}

/** Container lines as `t state id rc reason`. */
export function containerLines(events: readonly EngineEvent[], container = 'web'): string[] {
  return only(events, 'container', container).map((e) => `${e.t} ${e.state} ${e.containerId} ${e.restartCount}${e.reason ? ` ${e.reason}` : ''}`);
}

/** Container lines of several containers, interleaved as they came, as `t container state rc reason`. */
export function lifecycle(events: readonly EngineEvent[]): string[] {
  return only(events, 'container').map((e) => `${e.t} ${e.container} ${e.state} ${e.restartCount}${e.reason ? ` ${e.reason}` : ''}`);
}

export interface PodRun {
  readonly clock: VirtualClock;
  readonly events: EngineEvent[];
  readonly runtime: PodRuntime;
}

/**
 * The manifest's first pod on a started `PodRuntime` at t = 0 on a virtual clock (not advanced),
 * against a scenario unless given a target and processes; the kubelet has been up an hour (no jitter).
 */
export function startPod(yaml: string, options: { target?: ProbeTarget; processes?: (clock: VirtualClock) => ContainerProcesses; scenario?: string } = {}): PodRun {
  const clock = new VirtualClock();
  const events: EngineEvent[] = [];
  const script = scenario(options.scenario ?? '');
  const pods = desiredPods(parseManifest(yaml));
  assert.ok(pods.length > 0, 'the manifest has a pod');
  const pod = pods[0] as (typeof pods)[number];
  const runtime = new PodRuntime(pod.identity, pod.spec, {
    clock,
    epoch: 0,
    kubeletStartedAt: -3_600_000,
    random: () => 0,
    target: options.target ?? new SimulatedTarget(script, clock),
    processes: options.processes ? options.processes(clock) : new SimulatedProcesses(script, clock),
    emit: (e) => events.push(e),
    idScheme: 'sim',
  }).start();
  return { clock, events, runtime };
}
