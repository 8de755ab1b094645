import type { ProbeType } from '../manifest';
import { type ContainerScript, DEFAULT_SCENARIO, type ProbeScript, type Scenario, type ScriptedOutcome } from '../scenario/scenario';
import type { ContainerHistory, PodHistory, RecordingHistory } from '../history/history';
import { instanceEnds } from '../history/instanceEnds';
import { type ContainerObservations, type Disagreement, type Observation, observeContainer } from '../history/probeObservations';
import { roundSeconds, secondsText } from '../text/durations';

/**
 * A recording turned into a scenario (docs/design.md §3): how the app behaved, per container, in
 * seconds since that container started — independent of the probe configuration that watched it,
 * so another configuration can be played against it (`replay`). What the format cannot say is
 * said in `notes`, each about a container or the whole recording.
 */
export interface ExtractedScenario {
  readonly scenario: Scenario;
  readonly notes: readonly ScenarioNote[];
}

export interface ScenarioNote {
  /** The container the note is about; absent for the recording as a whole. */
  readonly container?: string;
  readonly message: string;
}

type TimedStep = { readonly from: number; readonly outcome: ScriptedOutcome };

/** A container script and what was noticed making it. */
interface ContainerExtraction {
  /** Absent when nothing of the app's behaviour was seen (only its notes say why). */
  readonly script: ContainerScript | undefined;
  readonly notes: readonly string[];
}

export interface ExtractOptions {
  /** How long the recording lasted, when its header says more than its last line (`recordingLength`). */
  readonly durationSeconds?: number;
}

export function extractScenario(history: RecordingHistory, options: ExtractOptions = {}): ExtractedScenario {
  const length = Math.max(history.end, options.durationSeconds ?? 0);
  const notes: ScenarioNote[] = [];
  const containers: Record<string, ContainerScript> = {};
  const takenFrom = new Map<string, string>();
  const manyPods = history.pods.size > 1;
  for (const pod of history.pods.values()) {
    for (const container of pod.containers.values()) {
      const extracted = extractContainer(history, pod, container, length);
      if (extracted === undefined) continue;
      const name = container.name;
      const taken = takenFrom.get(name);
      if (taken === undefined) {
        if (extracted.script !== undefined) containers[name] = extracted.script;
        takenFrom.set(name, pod.name);
        for (const message of extracted.notes) notes.push({ container: name, message: manyPods ? `pod ${pod.name}: ${message}` : message });
        continue;
      }
      const kept = containers[name];
      const difference = kept && extracted.script ? describeDifference(kept, extracted.script) : undefined;
      if (difference !== undefined) notes.push({ container: name, message: `pod ${pod.name} behaved otherwise (${difference}); the scenario follows pod ${taken}` });
    }
  }
  for (const message of silentContainers(history, takenFrom)) notes.push(message);
  const deletion = deletionOf(history);
  if (deletion.note !== undefined) notes.push({ message: deletion.note });
  return {
    scenario: { containers, kubeletStartedAgo: DEFAULT_SCENARIO.kubeletStartedAgo, ...(deletion.after !== undefined ? { deleteAfter: deletion.after } : {}) },
    notes,
  };
}

function extractContainer(history: RecordingHistory, pod: PodHistory, container: ContainerHistory, length: number): ContainerExtraction | undefined {
  if (container.instances.length === 0) return undefined;
  const observed = observeContainer(pod, container, { sinceFirstStart: history.kills === 'reported', end: length });
  const notes: string[] = [];
  // A local run's kills never reached the process; a cluster's are not in our events.
  const ends = history.kills === 'carried-out' ? instanceEnds(container, observed.spans, notes) : undefined;
  const exit = ends?.exit;
  const stopAfter = ends?.stopAfter;
  if (history.kills === 'cluster' && container.instances.some((i) => i.end?.cause === 'exit')) {
    notes.push("the cluster's container ends are not told apart (killed by its kubelet, or exited by itself): no exitAfter");
  }
  if (observed.probes.size === 0 && exit === undefined) {
    if (observed.skipped.errors + observed.skipped.paused > 0) notes.push(`no attempt reached the app (${skippedText(observed)}): left out`);
    return notes.length > 0 ? { script: undefined, notes } : undefined;
  }
  const app = appTimeline(observed, length);
  if (app.neverReady && observed.probes.size > 0) notes.push(`no probe ever succeeded: readyAfter is ${app.failAfter === undefined ? `the recording's length (${secondsText(length)})` : `when its attempts began to time out (${secondsText(app.failAfter)}, failAfter too)`}, so a probe the recording lacks fails throughout`);
  const { probes, byAttempt } = probeScripts(observed, app, grpcProbes(container), notes);
  const latency = latencyOf(observed, notes);
  notes.push(...disagreementNotes(observed.disagreements.filter((d) => !byAttempt.has(d.probe)), history.kills === 'reported'));
  if (observed.skipped.errors + observed.skipped.paused > 0) notes.push(`left out, not the app's doing: ${skippedText(observed)}`);
  const timedOut = timeoutsText(observed, probes);
  if (timedOut !== undefined) notes.push(`${timedOut} timed out: a probe's own steps cannot make it hang, so they are failures answered in ${secondsText(latency)}`);
  return {
    script: {
      readyAfter: app.readyAfter,
      latency,
      probes,
      ...(app.failAfter !== undefined ? { failAfter: app.failAfter } : {}),
      ...(exit !== undefined ? { exitAfter: exit.after, exitCode: exit.code } : {}),
      ...(stopAfter !== undefined ? { stopAfter } : {}),
    },
    notes,
  };
}

/** The app as a whole: when it first answered, and when it hung for good. */
interface AppTimeline {
  readonly readyAfter: number;
  readonly failAfter: number | undefined;
  readonly neverReady: boolean;
}

function appTimeline(observed: ContainerObservations, end: number): AppTimeline {
  const readyAfter = firstAnswer(observed);
  const hang = hangsFrom(observed);
  // An app that never answered and then hung: ready and hung at once (the scenario's order puts
  // not listening before readyAfter, hanging from failAfter on).
  const failAfter = hang !== undefined && (readyAfter === undefined || hang > readyAfter) ? hang : undefined;
  return { readyAfter: readyAfter ?? failAfter ?? Math.ceil(end), failAfter, neverReady: readyAfter === undefined };
}

/**
 * Each probe's own script, where the app's timeline does not already give what it saw: by
 * attempt when its outcomes went by count (instances disagree by time but not by order, or two
 * attempts at one moment saw different outcomes), else by time.
 */
function probeScripts(observed: ContainerObservations, app: AppTimeline, grpc: ReadonlySet<ProbeType>, notes: string[]): { probes: Partial<Record<ProbeType, ProbeScript>>; byAttempt: Set<ProbeType> } {
  const probes: Partial<Record<ProbeType, ProbeScript>> = {};
  const byAttempt = new Set<ProbeType>();
  for (const [type, timeline] of observed.probes) {
    const conflicted = observed.disagreements.some((d) => d.probe === type) || sameMomentConflict(timeline);
    const outcomes = conflicted ? sameByAttempt(observed.sequences.get(type)) : undefined;
    if (outcomes !== undefined) {
      probes[type] = { kind: 'attempts', outcomes };
      byAttempt.add(type);
      notes.push(`${type} answered by attempt, not by time: every instance saw the same outcomes in the same order, at other moments since its start`);
    } else if (!explainedByApp(timeline, app, grpc.has(type))) probes[type] = { kind: 'timed', steps: timedSteps(timeline, app, grpc.has(type)) };
  }
  return { probes, byAttempt };
}

/**
 * A probe's outcomes by time, compressed to their changes. When its attempts before readyAfter
 * all found the app not listening yet, its steps begin at readyAfter and the app's timeline
 * answers before (a refused connection, as it was); otherwise from 0, the first outcome holding
 * before the first attempt.
 */
function timedSteps(timeline: readonly Observation[], app: AppTimeline, grpc: boolean): TimedStep[] {
  const early = timeline.filter((o) => o.at < app.readyAfter);
  const later = timeline.slice(early.length);
  return later.length > 0 && early.every((o) => notListening(o, grpc)) ? toSteps(later, app.readyAfter) : toSteps(timeline, 0);
}

function toSteps(timeline: readonly Observation[], origin: number): TimedStep[] {
  const steps: TimedStep[] = [];
  for (const observation of timeline) {
    const last = steps.at(-1);
    if (last === undefined) steps.push({ from: origin, outcome: observation.outcome });
    else if (last.outcome === observation.outcome) continue;
    // Two attempts at one moment: the later one's outcome is what a replay's attempt there gets.
    else if (last.from === observation.at) {
      steps[steps.length - 1] = { from: last.from, outcome: observation.outcome };
      if (steps.at(-2)?.outcome === observation.outcome) steps.pop();
    }
    else steps.push({ from: observation.at, outcome: observation.outcome });
  }
  return steps;
}

/** What the app answers before readyAfter: a failure — over a gRPC probe's whole timeout (G2: the dial waits for its deadline). */
function notListening(o: Observation, grpc: boolean): boolean {
  return o.outcome === 'failure' && (!grpc || o.timedOut);
}

/** Two attempts at the same moment since the start saw different outcomes: only counting attempts tells them apart. */
function sameMomentConflict(timeline: readonly Observation[]): boolean {
  return timeline.some((o, i) => i > 0 && (timeline[i - 1] as Observation).at === o.at && (timeline[i - 1] as Observation).outcome !== o.outcome);
}

/** The probes a gRPC handler answers (their worker lines say `grpc …`). */
function grpcProbes(container: ContainerHistory): Set<ProbeType> {
  const grpc = new Set<ProbeType>();
  for (const [type, probe] of container.probes) if (probe.workers.at(-1)?.event.handler.startsWith('grpc') === true) grpc.add(type);
  return grpc;
}

/**
 * `readyAfter`: the first moment any probe saw the app answer (a success, or a warning, which
 * counts as one) — 0 when the very first attempt did, since before it that outcome held.
 */
function firstAnswer(observed: ContainerObservations): number | undefined {
  let earliest: Observation | undefined;
  let answered = Infinity;
  for (const timeline of observed.probes.values()) {
    const first = timeline[0];
    if (first !== undefined && (earliest === undefined || first.at < earliest.at)) earliest = first;
    const answer = timeline.find((o) => o.outcome !== 'failure');
    if (answer !== undefined) answered = Math.min(answered, answer.at);
  }
  if (!Number.isFinite(answered)) return undefined;
  return earliest !== undefined && earliest.outcome !== 'failure' ? 0 : answered;
}

/**
 * An app that answers by attempt (the n-th probe fails, whenever it comes): every instance saw
 * the same outcomes in the same order. The longest sequence, its repeated tail shortened (the
 * last outcome repeats), or `undefined` when instances differ.
 */
function sameByAttempt(sequences: readonly (readonly ScriptedOutcome[])[] | undefined): ScriptedOutcome[] | undefined {
  if (sequences === undefined || sequences.length === 0) return undefined;
  const longest = sequences.reduce((a, b) => (b.length > a.length ? b : a));
  if (!sequences.every((sequence) => sequence.every((outcome, i) => outcome === longest[i]))) return undefined;
  const outcomes = [...longest];
  while (outcomes.length > 1 && outcomes.at(-1) === outcomes.at(-2)) outcomes.pop();
  return outcomes;
}

/**
 * When the app hung for good (`failAfter`): the earliest moment from which a probe whose attempts
 * had been answered (a success, or a quick failure) timed out to the end. A probe that went on
 * answering keeps steps of its own (`explainedByApp`); one the recording lacks hangs with the app.
 */
function hangsFrom(observed: ContainerObservations): number | undefined {
  let from = Infinity;
  for (const timeline of observed.probes.values()) {
    let first = timeline.length;
    while (first > 0 && (timeline[first - 1] as Observation).timedOut) first--;
    if (first > 0 && first < timeline.length) from = Math.min(from, (timeline[first] as Observation).at);
  }
  return Number.isFinite(from) ? from : undefined;
}

/**
 * Whether the app's timeline alone gives every outcome a probe saw: failures before readyAfter,
 * successes until failAfter, timeouts after it.
 */
function explainedByApp(timeline: readonly Observation[], app: AppTimeline, grpc: boolean): boolean {
  return timeline.every((o) => {
    if (o.at < app.readyAfter) return notListening(o, grpc);
    if (app.failAfter !== undefined && o.at >= app.failAfter) return o.outcome === 'failure' && o.timedOut;
    return o.outcome === 'success';
  });
}

/**
 * One latency for every probe: the median time the app took to answer. Timeouts say only that it
 * did not answer in time; when nothing else was seen, the longest of them (the least it took).
 */
function latencyOf(observed: ContainerObservations, notes: string[]): number {
  const all = [...observed.probes.values()].flat();
  const answered = all.filter((o) => !o.timedOut).map((o) => o.durationMs);
  if (answered.length === 0) {
    const waited = Math.max(0, ...all.map((o) => o.durationMs));
    if (all.length > 0) notes.push(`every attempt timed out: latency is the longest wait (${secondsText(waited / 1000)}), the least the app took`);
    return roundSeconds(waited / 1000);
  }
  const sorted = answered.sort((a, b) => a - b);
  const median = roundSeconds((sorted[sorted.length >> 1] as number) / 1000);
  const max = (sorted.at(-1) as number) / 1000;
  if (max > 2 * median + LATENCY_SLACK_SECONDS) notes.push(`answers took ${secondsText(median)} (median of ${sorted.length}) up to ${secondsText(max)}: the scenario answers every probe in ${secondsText(median)}`);
  return median;
}

/** A spread of answers below this is noise (a local HTTP answer takes 1 to 80 ms): not worth a note. */
const LATENCY_SLACK_SECONDS = 0.1;

function disagreementNotes(disagreements: readonly Disagreement[], sinceFirstStart: boolean): string[] {
  return disagreements.slice(0, 5).map((d) => {
    const { first } = d;
    const which = sinceFirstStart ? 'a later instance' : `restart ${d.instance}`;
    return `${which} disagrees with the first on ${d.differing} of ${d.compared} ${d.probe} attempts (first at ${secondsText(first.at)}: ${first.saw} where the scenario has ${first.kept})`;
  });
}

function skippedText(observed: ContainerObservations): string {
  const parts: string[] = [];
  const { errors, paused } = observed.skipped;
  if (errors > 0) parts.push(`${errors} prober error${errors === 1 ? '' : 's'}`);
  if (paused > 0) parts.push(`${paused} attempt${paused === 1 ? '' : 's'} while a debugger paused the app`);
  return parts.join(', ');
}

/** Timeouts of the probes that keep steps of their own (the others hang where the app does). */
function timeoutsText(observed: ContainerObservations, kept: Partial<Record<ProbeType, ProbeScript>>): string | undefined {
  const parts: string[] = [];
  for (const [type, timeline] of observed.probes) {
    if (kept[type] === undefined) continue;
    const count = timeline.filter((o) => o.timedOut).length;
    if (count > 0) parts.push(`${count} ${type} attempt${count === 1 ? '' : 's'}`);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** Containers with instances but nothing to say (no probes, no exit) are not in the scenario: said once. */
function silentContainers(history: RecordingHistory, taken: ReadonlyMap<string, string>): ScenarioNote[] {
  const names = new Set<string>();
  for (const pod of history.pods.values()) for (const container of pod.containers.values()) if (!taken.has(container.name) && container.instances.length > 0) names.add(container.name);
  return [...names].map((container) => ({ container, message: 'not probed and never exited by itself: left out (it runs, healthy, in a replay)' }));
}

/** `pod.deleteAfter`: when the first deleted pod got its deletion; other pods that differ are said. */
function deletionOf(history: RecordingHistory): { after?: number; note?: string } {
  const deleted = [...history.pods.values()].filter((p) => p.deleting !== undefined);
  const first = deleted[0];
  if (first === undefined) return {};
  const after = roundSeconds(first.deleting?.event.t ?? 0);
  const kept = [...history.pods.values()].filter((p) => p.deleting === undefined).map((p) => p.name);
  const other = deleted.filter((p) => Math.abs((p.deleting?.event.t ?? 0) - after) > 1).map((p) => p.name);
  const differ = [...(kept.length > 0 ? [`${kept.join(', ')} not deleted`] : []), ...(other.length > 0 ? [`${other.join(', ')} deleted at another time`] : [])];
  return differ.length === 0 ? { after } : { after, note: `pod ${first.name} was deleted after ${secondsText(after)}, but ${differ.join('; ')}: a scenario deletes every pod at once` };
}

/** What sets two scripts of the same container apart, in a few words; `undefined` when they agree. */
function describeDifference(kept: ContainerScript, other: ContainerScript): string | undefined {
  const parts: string[] = [];
  const field = (name: 'readyAfter' | 'failAfter' | 'exitAfter' | 'latency', what: string) => {
    const a = kept[name];
    const b = other[name];
    if (a !== b && (a === undefined || b === undefined || Math.abs(a - b) > 0.5)) parts.push(`${what} ${b === undefined ? 'never' : secondsText(b)}, not ${a === undefined ? 'never' : secondsText(a)}`);
  };
  field('readyAfter', 'ready after');
  field('failAfter', 'hung after');
  field('exitAfter', 'exited after');
  field('latency', 'answers in');
  if (parts.length === 0 && JSON.stringify(kept.probes) !== JSON.stringify(other.probes)) parts.push('its probes saw other outcomes at other times');
  return parts.length > 0 ? parts.join(', ') : undefined;
}
