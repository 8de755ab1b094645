import type { EngineEvent } from '../engine/events';
import { desiredPods } from '../engine/manager';
import type { Manifest, PodSpecModel, ProbeType } from '../manifest';
import type { ContainerScript, ProbeScript, Scenario } from '../scenario/scenario';
import { startSimulation } from '../targets/simulation';
import type { RunHeader } from '../timeline/jsonl';
import { type ContainerOutcome, containerOutcomes, type KillCounts, outcomeKey } from './containerOutcomes';
import { type ExtractedScenario, extractScenario } from './extractScenario';
import { buildHistory, type RecordingHistory, recordingLength } from '../history/history';
import { probesByContainer } from '../scenario/match';

/**
 * What another configuration would have done with the app a recording saw: the recording becomes
 * a scenario (`extractScenario`), the manifest is simulated against it on a virtual clock for as
 * long as the recording lasts, and both runs are measured the same way (`containerOutcomes`).
 */
export interface ReplayInput {
  readonly header: RunHeader | undefined;
  readonly events: readonly EngineEvent[];
  /** The configuration to replay: the edited manifest. */
  readonly manifest: Manifest;
  /** Built already (the editor keeps one); built from `header` and `events` otherwise. */
  readonly history?: RecordingHistory;
}

export interface BeforeAfter<T> {
  /** In the recording: what happened (a local run's kills are the kubelet's, reported). */
  readonly before: T;
  /** In the replay against the manifest. */
  readonly after: T;
}

export interface ContainerComparison {
  readonly pod: string;
  readonly container: string;
  /** The manifest's pod it was replayed as, when that pod has another name. */
  readonly replayedAs?: string;
  readonly restarts: BeforeAfter<number>;
  readonly timeToReady: BeforeAfter<number | null>;
  readonly timeNotReady: BeforeAfter<number | null>;
  readonly kills: BeforeAfter<KillCounts>;
}

export interface ReplayResult {
  readonly durationSeconds: number;
  readonly containers: readonly ContainerComparison[];
  /** What the comparison could not hold: containers on one side only, and the scenario's notes. */
  readonly notes: readonly string[];
  readonly extracted: ExtractedScenario;
  /** The replay's own events (a timeline of it). */
  readonly events: readonly EngineEvent[];
}

export function replayRecording(input: ReplayInput): ReplayResult {
  const history = input.history ?? buildHistory(input.header, input.events);
  // As long as the recording.
  const durationSeconds = recordingLength(input.header, history);
  const extracted = extractScenario(history, { durationSeconds });
  const pods = desiredPods(input.manifest);
  const events: EngineEvent[] = [];
  const simulation = startSimulation(pods, { scenario: fitScenario(extracted.scenario, pods.map((p) => p.spec)), seed: seedOf(input.header), emit: (event) => events.push(event) });
  try {
    simulation.advanceTo(durationSeconds);
  } finally {
    simulation.dispose();
  }
  const before = containerOutcomes(input.events, { until: durationSeconds, kills: history.kills });
  const after = containerOutcomes(events, { until: durationSeconds, kills: 'carried-out' });
  const paired = pair(before, after, pods.map((p) => p.identity.name));
  const scenarioNotes = extracted.notes.map((n) => (n.container === undefined ? n.message : `${n.container}: ${n.message}`));
  return { durationSeconds, containers: paired.containers, notes: [...paired.notes, ...scenarioNotes], extracted, events };
}

/** A simulated recording's seed, so start-up jitter (W4) falls as it did; else the CLI's default. */
function seedOf(header: RunHeader | undefined): number {
  const seed = header?.['seed'];
  return typeof seed === 'number' && Number.isInteger(seed) ? seed : 1;
}

/**
 * The scenario as the manifest can play it: containers it does not run are left out (the
 * comparison says so), and so are outcomes for probes a container no longer has (an edit removed
 * them: nothing asks).
 */
export function fitScenario(scenario: Scenario, specs: readonly PodSpecModel[]): Scenario {
  const probes = probesByContainer(specs);
  const containers: Record<string, ContainerScript> = {};
  for (const [name, script] of Object.entries(scenario.containers)) {
    const has = probes.get(name);
    if (has === undefined) continue;
    const kept = Object.fromEntries(Object.entries(script.probes).filter(([type]) => has.has(type as ProbeType))) as Partial<Record<string, ProbeScript>>;
    containers[name] = { ...script, probes: kept };
  }
  return { ...scenario, containers };
}

interface Paired {
  readonly containers: ContainerComparison[];
  readonly notes: string[];
}

/**
 * Rows for the containers both runs have, pod by pod name; a lone pod on each side is the same pod
 * renamed. Containers on one side only are said, not dropped.
 */
function pair(before: ReadonlyMap<string, ContainerOutcome>, after: ReadonlyMap<string, ContainerOutcome>, manifestPods: readonly string[]): Paired {
  const recorded = unique([...before.values()].map((o) => o.pod));
  const replayed = unique([...manifestPods, ...[...after.values()].map((o) => o.pod)]);
  const podFor = new Map<string, string>();
  for (const pod of recorded) if (replayed.includes(pod)) podFor.set(pod, pod);
  const lonelyRecorded = recorded.filter((p) => !podFor.has(p));
  const lonelyReplayed = replayed.filter((p) => ![...podFor.values()].includes(p));
  const notes: string[] = [];
  if (lonelyRecorded.length === 1 && lonelyReplayed.length === 1) {
    podFor.set(lonelyRecorded[0] as string, lonelyReplayed[0] as string);
    notes.push(`pod ${lonelyRecorded[0]} of the recording is compared with pod ${lonelyReplayed[0]} of the manifest`);
  } else {
    for (const pod of lonelyRecorded) notes.push(`pod ${pod} is in the recording but not in the manifest: not replayed`);
    for (const pod of lonelyReplayed) notes.push(`pod ${pod} is in the manifest but not in the recording: replayed, with nothing to compare`);
  }
  const containers: ContainerComparison[] = [];
  const matched = new Set<string>();
  for (const outcome of before.values()) {
    const as = podFor.get(outcome.pod);
    if (as === undefined) continue;
    const replay = after.get(outcomeKey(as, outcome.container));
    if (replay === undefined) {
      notes.push(`${outcome.pod}/${outcome.container} is in the recording but not in the manifest: not replayed`);
      continue;
    }
    matched.add(outcomeKey(as, outcome.container));
    containers.push(compare(outcome, replay, as));
  }
  for (const [key, outcome] of after) {
    if (matched.has(key) || !podFor.size || ![...podFor.values()].includes(outcome.pod)) continue;
    notes.push(`${outcome.pod}/${outcome.container} is in the manifest but not in the recording: replayed as an app that is always healthy`);
  }
  return { containers, notes };
}

function compare(before: ContainerOutcome, after: ContainerOutcome, as: string): ContainerComparison {
  return {
    pod: before.pod,
    container: before.container,
    ...(as !== before.pod ? { replayedAs: as } : {}),
    restarts: { before: before.restarts, after: after.restarts },
    timeToReady: { before: before.timeToReady, after: after.timeToReady },
    timeNotReady: { before: before.timeNotReady, after: after.timeNotReady },
    kills: { before: before.kills, after: after.kills },
  };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
