import { livenessKillSeconds, MIN_STARTUP_BUDGET_SECONDS, startupBudgetSeconds } from '../rules/timing/formulas';
import { desiredPods } from '../engine/manager';
import { deriveStartupProbe, startupFailureThreshold } from '../fixes/startupProbe';
import { type ContainerModel, DEFAULT_MINOR_VERSION, parseManifest, PROBING_CONTAINERS, type ProbeModel, type ProbeType } from '../manifest';
import type { TextEdit } from '../text/edits';
import type { KillMode } from '../session/snapshot';
import { type FieldEditContext, fieldEditContext, probeFieldEdits } from '../fixes/probeField';
import { observedStartup, type ProbeFigures, probeFigures } from './figures';
import type { ProbeMeasurement } from '../history/measure';
import { groupByContainer, groupKey, unmatchedOf } from './manifestMatch';
import * as say from './recommendText';
import { roundSeconds } from '../text/durations';
import { joinInsertions, probeKeyOf, Verifier } from './verify';

/**
 * From what a recording measured, concrete probe values for a manifest (issue 12 §2), each with
 * the figures it rests on and what it changes (docs/spec/validation-rules.md §C):
 * - `timeoutSeconds` with headroom over the observed p99 (raised only: a lower one gains little);
 * - liveness `failureThreshold` so that `f × p` rides out the longest failure burst seen after
 *   start-up with one failure to spare, or, given enough data, no slower than that (never under 3);
 * - a startupProbe budget that covers the slowest observed start-up with a margin: the existing
 *   startupProbe's failureThreshold, or a startupProbe to add, derived from liveness.
 * Some values take another change with them: a startup budget kept above a raised liveness
 * (L11), liveness's initial delay dropped next to an added startupProbe (L28). Every value is
 * checked by applying its edits and running the rules on the result: one that adds a finding is
 * adjusted (the next value tried) or dropped, with the finding as the reason; one whose edit
 * would change another probe too (a shared anchor) is dropped.
 */

/** A p99 from fewer answers is a guess. */
export const MIN_ANSWERED_FOR_LATENCY = 20;
/** Counted attempts after start-up before liveness may be made less tolerant. */
export const MIN_ATTEMPTS_TO_LOWER = 100;
export const TIMEOUT_HEADROOM = 1.5;
export const STARTUP_MARGIN = 1.5;
/** The least liveness failureThreshold recommended: the default, one the docs and L27 stand by. */
export const MIN_LIVENESS_FAILURE_THRESHOLD = 3;
/** A burst measured in periods allows this much drift (a local session's timers are not exact). */
const PERIOD_SLACK = 0.1;

export type RecommendedField = 'timeoutSeconds' | 'failureThreshold' | 'initialDelaySeconds' | 'startupProbe';

/** The startupProbe a recommendation adds (its handler is liveness's, as written). */
export interface AddedStartupProbe {
  readonly failureThreshold: number;
  readonly periodSeconds: number;
  readonly timeoutSeconds?: number;
}

export interface Recommendation {
  /** The manifest's pod (as a session names it) and container. */
  readonly pod: string;
  readonly container: string;
  readonly probe: ProbeType;
  readonly field: RecommendedField;
  /** `null` for a startupProbe to add. */
  readonly from: number | null;
  readonly to: number | AddedStartupProbe;
  readonly reason: string;
  readonly changes: string;
  readonly edits: readonly TextEdit[];
}

export type DataFigure = 'latency' | 'startup' | 'failures';

export interface NotEnoughData {
  readonly pod: string;
  readonly container: string;
  readonly probe?: ProbeType;
  readonly figure: DataFigure;
  readonly reason: string;
}

export interface DroppedRecommendation {
  readonly pod: string;
  readonly container: string;
  readonly probe: ProbeType;
  readonly field: RecommendedField;
  readonly to: number | null;
  readonly reason: string;
}

export interface RecommendationReport {
  readonly measurements: readonly ProbeMeasurement[];
  readonly recommendations: readonly Recommendation[];
  readonly notEnoughData: readonly NotEnoughData[];
  readonly dropped: readonly DroppedRecommendation[];
  /** What the recording has that the manifest does not (pods, containers, probes), one sentence each. */
  readonly unmatched: readonly string[];
  /** How many of the manifest's containers the recording measured: none means another manifest's recording. */
  readonly matched: number;
  /** Every recommendation's edits together, insertions at one place joined: one workspace edit, one patch. */
  readonly edits: readonly TextEdit[];
}

export interface RecommendOptions {
  /** The manifest's text and name. */
  readonly text: string;
  readonly file: string;
  readonly measurements: readonly ProbeMeasurement[];
  readonly kills: KillMode;
  /** Recording pod → the manifest pod it stands for (`manifestPodNames`); a pod not in it stands for itself. */
  readonly manifestPods?: ReadonlyMap<string, string>;
  readonly minorVersion?: number;
}

export function recommend(options: RecommendOptions): RecommendationReport {
  const minorVersion = options.minorVersion ?? DEFAULT_MINOR_VERSION;
  const manifest = parseManifest(options.text, { minorVersion });
  const session = new RecommendationSession(options, new Verifier(options.text, options.file, minorVersion));
  const groups = groupByContainer(options.measurements, options.manifestPods);
  const pods = desiredPods(manifest);
  const names = new Map(pods.map((pod) => [pod.spec, pod.identity.name]));
  const unmatched = unmatchedOf(groups, pods);
  let matched = 0;
  for (const document of manifest.documents) {
    for (const spec of document.podSpecs) {
      const pod = names.get(spec) ?? '';
      for (const container of spec.containers) {
        if (!PROBING_CONTAINERS.includes(container.kind)) continue;
        const measured = groups.get(groupKey(pod, container.name));
        if (!measured) continue;
        matched++;
        session.recommendFor({ pod, document: document.source.index }, container, measured);
      }
    }
  }
  return { measurements: options.measurements, ...session.result(), unmatched, matched, edits: joinInsertions(session.accepted) };
}

/** Where a container is: its pod as a session names it, and the document that holds it (what findings and probe keys count by). */
interface Place {
  readonly pod: string;
  readonly document: number;
}

/** One value to try for a field: what it says, and the edits that make it. */
interface Candidate {
  readonly value: number;
  readonly to: number | AddedStartupProbe;
  readonly reason: string;
  readonly changes: string;
  readonly edits: () => { ok: true; edits: readonly TextEdit[] } | { ok: false; reason: string };
  /** Changes this value cannot go without (liveness raised past the startup budget takes the budget up with it: L11). */
  readonly companions?: readonly Companion[];
}

/** A change of another field made with a candidate, and recommended with it. */
interface Companion extends Candidate {
  readonly probe: ProbeType;
  readonly path: string;
  readonly field: RecommendedField;
  readonly from: number | null;
}

/** The startup budget the observed start-up calls for, if it was observed. */
interface StartupNeed {
  readonly target: number | undefined;
  readonly observed: string | undefined;
}

interface Proposal {
  readonly probe: ProbeType;
  /** The probe's API path: the one probe its edits may change (or add). */
  readonly path: string;
  readonly field: RecommendedField;
  readonly from: number | null;
  /** In order of preference: the first the rules accept is recommended. */
  readonly candidates: readonly Candidate[];
  /** A value the figures call for that cannot be given, and why. */
  readonly refused?: { readonly to: number; readonly reason: string };
}

class RecommendationSession {
  readonly recommendations: Recommendation[] = [];
  readonly notEnoughData: NotEnoughData[] = [];
  readonly dropped: DroppedRecommendation[] = [];
  readonly accepted: TextEdit[] = [];
  /** The probes the accepted edits change (`doc:path`): any other a candidate changes is through an anchor it shares. */
  private readonly intended = new Set<string>();
  private readonly context: FieldEditContext;

  constructor(
    private readonly options: RecommendOptions,
    private readonly verifier: Verifier,
  ) {
    this.context = fieldEditContext(options.text);
  }

  result() {
    return { recommendations: this.recommendations, notEnoughData: this.notEnoughData, dropped: this.dropped };
  }

  /**
   * Timeouts first, then liveness's tolerance (with the startup budget it pushes up, if any), then
   * the startup budget the observed start-up calls for.
   */
  recommendFor(place: Place, container: ContainerModel, measured: readonly ProbeMeasurement[]): void {
    const { pod } = place;
    const figures = new Map<ProbeType, ProbeFigures>();
    for (const m of measured) if (!figures.has(m.probe)) figures.set(m.probe, probeFigures(m.probe, measured.filter((x) => x.probe === m.probe)));
    const note = (figure: DataFigure, reason: string, probe?: ProbeType) => this.notEnoughData.push({ pod, container: container.name, ...(probe ? { probe } : {}), figure, reason });
    const timeouts = new Map<ProbeType, number>();
    for (const probe of container.probes) {
      const measuredProbe = figures.get(probe.type);
      if (!measuredProbe) continue;
      const value = this.settle(place, container, this.timeoutProposal(probe, measuredProbe, note));
      if (value !== undefined) timeouts.set(probe.type, value);
    }
    const need = this.startupNeed(container, [...figures.values()], note);
    const liveness = container.probe('liveness');
    const livenessFigures = figures.get('liveness');
    const before = this.recommendations.length;
    const livenessThreshold = liveness && livenessFigures ? this.settle(place, container, this.livenessProposal(liveness, livenessFigures, container, need, note)) : undefined;
    const startupDone = this.recommendations.slice(before).some((r) => r.probe === 'startup');
    if (!startupDone) this.settle(place, container, this.startupProposal(container, need, livenessThreshold, timeouts.get('liveness')));
  }

  /** Tries the proposal's candidates in order; the value accepted, if any. */
  private settle(place: Place, container: ContainerModel, proposal: Proposal | undefined): number | undefined {
    if (!proposal) return undefined;
    const { pod } = place;
    const drop = (to: number | null, reason: string) => this.dropped.push({ pod, container: container.name, probe: proposal.probe, field: proposal.field, to, reason });
    if (proposal.refused) {
      drop(proposal.refused.to, proposal.refused.reason);
      return undefined;
    }
    let refused: string | undefined;
    for (const candidate of proposal.candidates) {
      const changes: Companion[] = [{ ...candidate, probe: proposal.probe, path: proposal.path, field: proposal.field, from: proposal.from }, ...(candidate.companions ?? [])];
      const made = changes.map((change) => change.edits());
      const failed = made.find((m) => !m.ok);
      if (failed && !failed.ok) {
        drop(candidate.value, failed.reason);
        return undefined;
      }
      const edits = made.flatMap((m) => (m.ok ? m.edits : []));
      const keys = changes.map((change) => probeKeyOf(place.document, change.path));
      const verdict = this.verifier.verify([...this.accepted, ...edits]);
      const elsewhere = verdict.changed.filter((changed) => !keys.includes(changed) && !this.intended.has(changed));
      if (elsewhere.length > 0) {
        drop(candidate.value, `the value is written through an anchor other probes share (${elsewhere.map((k) => k.slice(k.indexOf(':') + 1)).join(', ')}): changing it would change them too`);
        return undefined;
      }
      if (verdict.added.length > 0) {
        const tripped = verdict.added.map((f) => `${f.rule} (${f.message})`).join(', ');
        const withCompanions = (candidate.companions ?? []).map((c) => `${c.probe}Probe.${c.field} ${String(c.to)}`).join(', ');
        const attempt = withCompanions ? `with ${withCompanions} as well, ${candidate.value} would trip ${tripped}` : `${candidate.value} would trip ${tripped}`;
        refused = refused ? `${refused}; ${attempt}` : attempt;
        continue;
      }
      this.accepted.push(...edits);
      for (const key of keys) this.intended.add(key);
      for (const [i, change] of changes.entries()) {
        const reason = i === 0 && refused ? `${change.reason}; adjusted: ${refused}` : change.reason;
        const own = made[i];
        this.recommendations.push({ pod, container: container.name, probe: change.probe, field: change.field, from: change.from, to: change.to, reason, changes: change.changes, edits: own?.ok ? own.edits : [] });
      }
      return candidate.value;
    }
    drop(proposal.candidates[0]?.value ?? null, refused ?? 'no value to try');
    return undefined;
  }

  private fieldCandidate(probe: ProbeModel, field: string, value: number, reason: string, changes: string): Candidate {
    return { value, to: value, reason, changes, edits: () => probeFieldEdits(this.context, probe, [[field, value]]) };
  }

  private timeoutProposal(probe: ProbeModel, figures: ProbeFigures, note: (figure: DataFigure, reason: string, probe?: ProbeType) => void): Proposal | undefined {
    const { latency, timeoutsAfterStart: timeouts } = figures;
    const current = probe.effective.timeoutSeconds;
    if (timeouts > 0) {
      const recorded = figures.measurements[0]?.config?.timeoutSeconds;
      const at = recorded === undefined ? '' : ` (timeoutSeconds ${recorded})`;
      note('latency', `${timeouts} attempt${timeouts === 1 ? '' : 's'} after start-up timed out${at}: how long they would have taken is unknown; if they were slow answers rather than a hung app, the timeout is too tight`, probe.type);
    }
    if (!latency || latency.answered < MIN_ANSWERED_FOR_LATENCY) {
      const timedOut = figures.timeouts > 0 ? `; ${figures.timeouts} timed out: record with a larger timeoutSeconds to see how long the answers take` : '';
      note('latency', `${latency?.answered ?? 0} answered attempt${latency?.answered === 1 ? '' : 's'}: a p99 needs at least ${MIN_ANSWERED_FOR_LATENCY}${timedOut}`, probe.type);
      return undefined;
    }
    const needed = Math.max(1, Math.ceil((latency.p99Ms * TIMEOUT_HEADROOM) / 1000));
    if (needed <= current) return undefined;
    const period = probe.effective.periodSeconds;
    const to = Math.min(needed, period);
    const proposal = { probe: probe.type, path: probe.path, field: 'timeoutSeconds' as const, from: current };
    if (to <= current) {
      // The answer is in periodSeconds, which the measurements do not speak for.
      const reason = `${say.latencyText(latency)}: an attempt needs ${needed} s, more than periodSeconds (${period}); a timeout longer than the period trips L12: raise periodSeconds first`;
      return { ...proposal, candidates: [], refused: { to: needed, reason } };
    }
    const reason = say.timeoutReason(latency, TIMEOUT_HEADROOM, needed, to < needed ? { periodSeconds: period } : undefined, timeouts);
    return { ...proposal, candidates: [this.fieldCandidate(probe, 'timeoutSeconds', to, reason, say.timeoutChanges(probe.type, probe.effective, to, latency.maxMs))] };
  }

  private livenessProposal(liveness: ProbeModel, figures: ProbeFigures, container: ContainerModel, need: StartupNeed, note: (figure: DataFigure, reason: string, probe?: ProbeType) => void): Proposal | undefined {
    const { periodSeconds: period, failureThreshold: current } = liveness.effective;
    const known = figures.bursts.filter((b) => b.lengthKnown);
    const unknown = figures.bursts.filter((b) => !b.lengthKnown);
    for (const text of say.unknownBurstsText(unknown)) note('failures', text, 'liveness');
    const longest = known.reduce<(typeof known)[number] | undefined>((a, b) => (!a || b.seconds > a.seconds ? b : a), undefined);
    const needed = longest ? Math.ceil(longest.seconds / period - PERIOD_SLACK) + 1 : 1;
    const startup = container.probe('startup');
    const candidate = (value: number, reason: string): Candidate => {
      const made = this.fieldCandidate(liveness, 'failureThreshold', value, reason, say.livenessChanges(liveness.effective, value, startup !== undefined));
      // L11: the startup budget must stay above what liveness alone would allow.
      const companion = startup && this.startupRaise(startup, need, livenessKillSeconds({ ...liveness.effective, failureThreshold: value }));
      return companion ? { ...made, companions: [companion] } : made;
    };
    const proposal = { probe: 'liveness' as const, path: liveness.path, field: 'failureThreshold' as const, from: current };
    if (longest && needed > current) return { ...proposal, candidates: [candidate(needed, say.livenessRaiseReason(longest, needed, period))] };
    // Without a startupProbe, K_live = d + f × p is also all the time a start gets: it must still cover the observed one.
    const forStart = startup ? 1 : need.target !== undefined ? Math.ceil((need.target - liveness.effective.initialDelaySeconds) / period) : undefined;
    const floor = Math.max(needed, MIN_LIVENESS_FAILURE_THRESHOLD, forStart ?? 1);
    if (floor >= current) return undefined;
    const thin =
      unknown.length > 0
        ? 'a burst of unknown length'
        : figures.attemptsAfterStart < MIN_ATTEMPTS_TO_LOWER
          ? `${figures.attemptsAfterStart} counted attempts after start-up (${MIN_ATTEMPTS_TO_LOWER} needed)`
          : forStart === undefined
            ? 'a start-up not observed (without a startupProbe, liveness also bounds the start)'
            : undefined;
    if (thin) {
      note('failures', `liveness allows ${current} × ${period} s of failures, more than any burst seen needs, but ${thin} is too little to make it give up sooner`, 'liveness');
      return undefined;
    }
    // L13 may want liveness above readiness on the same endpoint: the next values up are the adjustments.
    const values = Array.from({ length: current - floor }, (_, i) => floor + i);
    const startText = forStart !== undefined && forStart > 1 && need.observed ? need.observed : undefined;
    return { ...proposal, candidates: values.map((v) => candidate(v, say.livenessLowerReason(longest, figures.attemptsAfterStart, v, period, startText))) };
  }

  /** The budget the slowest observed start-up needs with its margin; said when it was not observed (and would matter: something kills). */
  private startupNeed(container: ContainerModel, figures: readonly ProbeFigures[], note: (figure: DataFigure, reason: string) => void): StartupNeed {
    const killer = container.probe('startup') ?? container.probe('liveness');
    if (!killer) return { target: undefined, observed: undefined };
    const observed = observedStartup(figures, this.options.kills);
    if (!observed.ok) {
      note('startup', observed.reason);
      return { target: undefined, observed: undefined };
    }
    const period = killer.effective.periodSeconds;
    return {
      target: roundSeconds(Math.max(observed.seconds * STARTUP_MARGIN, observed.seconds + period, MIN_STARTUP_BUDGET_SECONDS)),
      observed: say.startupObservedText(observed.seconds, observed.instances, observed.probe),
    };
  }

  /**
   * The existing startupProbe's failureThreshold raised so that its budget reaches what the
   * start-up needs and stays above `livenessFloor` (liveness alone, once changed: L11); `undefined`
   * when it already does.
   */
  private startupRaise(startup: ProbeModel, need: StartupNeed, livenessFloor: number | undefined): Companion | undefined {
    const { initialDelaySeconds: delay, failureThreshold: current, periodSeconds: period } = startup.effective;
    const budget = startupBudgetSeconds(startup.effective);
    const forStart = need.target !== undefined && budget < need.target ? need.target : undefined;
    const forLiveness = livenessFloor !== undefined && budget <= livenessFloor ? livenessFloor : undefined;
    const value = Math.max(forStart !== undefined ? startupFailureThreshold(forStart, period, delay) : 1, forLiveness !== undefined ? Math.floor((forLiveness - delay) / period) + 1 : 1);
    if (value <= current) return undefined;
    const reason = say.startupRaiseReason(forStart !== undefined ? need.observed : undefined, STARTUP_MARGIN, forStart ?? 0, forLiveness);
    return { ...this.fieldCandidate(startup, 'failureThreshold', value, reason, say.startupChanges(startup.effective, value)), probe: 'startup', path: startup.path, field: 'failureThreshold', from: current };
  }

  private startupProposal(container: ContainerModel, need: StartupNeed, livenessThreshold: number | undefined, livenessTimeout: number | undefined): Proposal | undefined {
    const liveness = container.probe('liveness');
    const startup = container.probe('startup');
    if (startup) {
      const raise = this.startupRaise(startup, need, undefined);
      return raise && { probe: 'startup', path: startup.path, field: 'failureThreshold', from: raise.from, candidates: [raise] };
    }
    if (!liveness || need.target === undefined || need.observed === undefined) return undefined;
    const livenessAfter = { ...liveness.effective, ...(livenessThreshold !== undefined ? { failureThreshold: livenessThreshold } : {}) };
    if (livenessKillSeconds(livenessAfter) >= need.target) return undefined;
    const added = this.addedStartupCandidate(container, liveness, livenessAfter, need.target, livenessTimeout, need.observed);
    // L28: next to a startupProbe, liveness's own initial delay is redundant; the adjustment drops it.
    const { initialDelaySeconds: delay } = liveness.effective;
    const noDelay: Companion = { ...this.fieldCandidate(liveness, 'initialDelaySeconds', 0, say.livenessDelayReason(delay), say.livenessDelayChanges(delay)), probe: 'liveness', path: liveness.path, field: 'initialDelaySeconds', from: delay };
    const candidates = delay > 0 ? [added, { ...added, companions: [noDelay] }] : [added];
    return { probe: 'startup', path: liveness.path.replace(/livenessProbe$/, 'startupProbe'), field: 'startupProbe', from: null, candidates };
  }

  private addedStartupCandidate(container: ContainerModel, liveness: ProbeModel, livenessAfter: ProbeModel['effective'], target: number, timeout: number | undefined, observed: string): Candidate {
    const period = liveness.effective.periodSeconds;
    const failureThreshold = startupFailureThreshold(target, period);
    const to: AddedStartupProbe = { failureThreshold, periodSeconds: period, ...((timeout ?? liveness.effective.timeoutSeconds) > 1 ? { timeoutSeconds: timeout ?? liveness.effective.timeoutSeconds } : {}) };
    return {
      value: failureThreshold * period,
      to,
      reason: say.addStartupReason(observed, STARTUP_MARGIN, target, livenessAfter),
      changes: say.addStartupChanges(failureThreshold, period, livenessAfter),
      edits: () => {
        const derived = deriveStartupProbe(container, this.options.text, target, 0, timeout);
        return derived.ok ? { ok: true, edits: [derived.probe.edit] } : { ok: false, reason: derived.reason };
      },
    };
  }
}
