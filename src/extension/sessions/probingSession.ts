import * as vscode from 'vscode';
import type { ManifestSnapshot, PlacedPodSpec } from '../../core/editing/incrementalChecker';
import type { Disposable } from '../../core/engine/disposable';
import type { EngineEvent } from '../../core/engine/events';
import { type DesiredPod, desiredPodsOf, Manager, probeDependencies } from '../../core/engine/manager';
import type { PodRuntime, PodRuntimeOptions, RestartOutcome } from '../../core/engine/podRuntime';
import { type PodSpecModel, PROBING_CONTAINERS, type ProbeType } from '../../core/manifest';
import { SessionSummary } from '../../core/session/summary';
import { DEFAULT_TIMELINE_CAPACITY, TimelineStore } from '../../core/timeline/store';
import { baseName } from '../documents/fileNames';
import { Throttle } from './throttle';

/** Where probes go: this machine, a scenario on a virtual clock, or pods through kubectl. */
export type SessionKind = 'local' | 'simulated' | 'cluster';

export type AttemptEvent = Extract<EngineEvent, { type: 'attempt' }>;

/**
 * What differs between sessions: time, where probes go, what else lives as long. Everything the
 * pod runtimes take but the event sink, which is the session's own.
 */
export interface SessionEngine extends Omit<PodRuntimeOptions, 'emit' | 'backoff'> {
  /** Disposed with the session, after the engine (a simulation's ticker). */
  readonly owned: readonly Disposable[];
}

export interface SessionOptions {
  readonly id: string;
  readonly kind: SessionKind;
  /** The manifest. */
  readonly uri: vscode.Uri;
  /** The pods to run, by name; `undefined`: every pod of the manifest. */
  readonly pods: readonly string[] | undefined;
  /** `127.0.0.1`, `60× · web.scenario.yaml`: shown next to the session's name. */
  readonly detail: string;
  /** Sees each kubelet event (`type: 'event'`) as it happens, for the output channel. */
  readonly onKubeletEvent?: (session: ProbingSession, event: Extract<EngineEvent, { type: 'event' }>) => void;
  /** Events kept for the timeline (`probeLens.timeline.maxEvents`); default `DEFAULT_TIMELINE_CAPACITY`. */
  readonly timelineCapacity?: number;
  /** Session seconds per real second: a simulation's speed; 1 (the default) on the wall clock. */
  readonly rate?: number;
}

/** Sees every event of a session as it is recorded. */
export type RecordListener = (event: EngineEvent) => void;

/** Views redraw at most this often, however fast the session goes. */
const SESSION_REFRESH_MS = 250;

/**
 * One probing session over one manifest: the engine (a `Manager` of pod runtimes on a clock and a
 * target), its events folded into a `SessionSummary` and kept in a bounded log, and what the
 * editor needs to place them (the latest snapshot). Disposing it stops everything it started:
 * workers, timers, attempts in flight, its ticker and its subscriptions.
 */
export class ProbingSession implements vscode.Disposable {
  readonly summary = new SessionSummary();
  /** Its events for the timeline, bounded (`TimelineStore` drops the largest lane's oldest first). */
  readonly events: TimelineStore;
  /** Wall-clock time of t = 0 (epoch ms). */
  readonly startedAt = Date.now();
  /** A plain array, not an emitter: `record` runs for every event, and usually nobody listens. */
  private recordListeners: RecordListener[] = [];
  private readonly manager: Manager;
  private readonly lastAttempts = new Map<string, AttemptEvent>();
  private readonly changes = new vscode.EventEmitter<void>();
  private readonly stops = new vscode.EventEmitter<void>();
  private readonly throttle = new Throttle(SESSION_REFRESH_MS, () => this.changes.fire());
  private readonly owned: vscode.Disposable[] = [];
  private desired: readonly DesiredPod[] = [];
  /** Per probe key, what its worker depends on: an edit that changes it starts the probe's counts afresh. */
  private prints = new Map<string, string>();
  private current: ManifestSnapshot | undefined;
  /** Pod name → where it sits in `current`; built on first use after each sync (views ask per pod, several times a second). */
  private placements: Map<string, PlacedPodSpec | undefined> | undefined;
  private stopped = false;

  /** Fires at most every `SESSION_REFRESH_MS` while the session changes. */
  readonly onDidChange = this.changes.event;
  readonly onDidStop = this.stops.event;

  constructor(
    readonly options: SessionOptions,
    private readonly engine: SessionEngine,
  ) {
    this.events = new TimelineStore(options.timelineCapacity ?? DEFAULT_TIMELINE_CAPACITY);
    this.manager = new Manager({
      clock: engine.clock,
      epoch: engine.epoch,
      kubeletStartedAt: engine.kubeletStartedAt,
      random: engine.random,
      target: engine.target,
      processes: engine.processes,
      emit: (event) => this.record(event),
      idScheme: engine.idScheme,
    });
  }

  get id(): string {
    return this.options.id;
  }

  get kind(): SessionKind {
    return this.options.kind;
  }

  get uri(): vscode.Uri {
    return this.options.uri;
  }

  get label(): string {
    return baseName(this.options.uri);
  }

  /** Session seconds per real second (a simulation's speed; 1 on the wall clock). */
  get rate(): number {
    return this.options.rate ?? 1;
  }

  /** `true` when `t` is virtual seconds (a simulation), `false` when it is wall-clock time since `startedAt`. */
  get isVirtual(): boolean {
    return this.options.kind === 'simulated';
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** The pods running now, as last synced. */
  get pods(): readonly DesiredPod[] {
    return this.desired;
  }

  get runtimes(): readonly PodRuntime[] {
    return this.manager.runtimes;
  }

  /** The snapshot the pods were last synced from. */
  get snapshot(): ManifestSnapshot | undefined {
    return this.current;
  }

  /** Seconds since the session began, on its clock (virtual in a simulation). */
  get elapsedSeconds(): number {
    return (this.engine.clock.now() - this.engine.epoch) / 1000;
  }

  /**
   * Follows the manifest: the Manager restarts only what an edit changed (by fingerprint). A
   * later version with a YAML syntax error is skipped — mid-edit, it would stop every pod it no
   * longer sees — and the pods keep running as last read.
   */
  sync(snapshot: ManifestSnapshot): void {
    if (this.stopped || (this.current !== undefined && holdsSyntaxError(snapshot))) return;
    const filter = this.options.pods;
    const desired = desiredPodsOf(snapshot.documents).filter((pod) => !filter || filter.includes(pod.identity.name));
    this.forgetEditedProbes(desired);
    this.current = snapshot;
    this.desired = desired;
    this.placements = undefined;
    this.manager.sync(desired);
    this.throttle.poke();
  }

  /** The last attempt of a probe, if it has had one since it was last edited. */
  lastAttempt(pod: string, container: string, probe: ProbeType): AttemptEvent | undefined {
    return this.lastAttempts.get(probeKey(pod, container, probe));
  }

  /** Where a pod of this session sits in the manifest, as last read. */
  placement(pod: string): PlacedPodSpec | undefined {
    this.placements ??= placementsOf(this.desired, this.current);
    return this.placements.get(pod);
  }

  /** The pod name a pod spec of the last snapshot runs under here. */
  podNameOf(placed: PlacedPodSpec): string | undefined {
    return this.desired.find((p) => p.spec === placed.spec)?.identity.name;
  }

  /** Kills a container's process; the kubelet restarts it per its policy (see `PodRuntime.restartContainer`). */
  restartContainer(pod: string, container: string): RestartOutcome | 'unknown-pod' {
    const runtime = this.manager.runtimes.find((r) => r.identity.name === pod);
    return runtime ? runtime.restartContainer(container) : 'unknown-pod';
  }

  /**
   * Sees each event as it is recorded (after the store has it), until disposed or the session
   * stops. For the timeline panel's live feed: it batches them itself.
   */
  onDidRecord(listener: RecordListener): vscode.Disposable {
    if (this.stopped) return new vscode.Disposable(() => undefined);
    this.recordListeners = [...this.recordListeners, listener];
    return new vscode.Disposable(() => {
      this.recordListeners = this.recordListeners.filter((l) => l !== listener);
    });
  }

  /** Ties something to the session's lifetime: disposed when it stops. */
  own(disposable: vscode.Disposable): void {
    if (this.stopped) disposable.dispose();
    else this.owned.push(disposable);
  }

  dispose(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.manager.dispose();
    this.engine.target.dispose();
    for (const d of this.engine.owned) d.dispose();
    for (const d of this.owned.splice(0)) d.dispose();
    this.throttle.dispose();
    this.recordListeners = [];
    this.stops.fire();
    this.stops.dispose();
    this.changes.dispose();
  }

  private record(event: EngineEvent): void {
    this.summary.apply(event);
    this.events.push(event);
    const listeners = this.recordListeners;
    for (let i = 0; i < listeners.length; i++) (listeners[i] as RecordListener)(event);
    if (event.type === 'attempt') this.lastAttempts.set(probeKey(event.pod, event.container, event.probe), event);
    else if (event.type === 'event') this.options.onKubeletEvent?.(this, event);
    this.throttle.poke();
  }

  private forgetEditedProbes(desired: readonly DesiredPod[]): void {
    const next = probePrints(desired);
    for (const [key, print] of this.prints) {
      if (next.get(key) === print) continue;
      this.lastAttempts.delete(key);
      const [pod, container, probe] = key.split('\u0000') as [string, string, ProbeType];
      this.summary.pods.get(pod)?.containers.get(container)?.probes.delete(probe);
    }
    this.prints = next;
  }
}

function probeKey(pod: string, container: string, probe: ProbeType): string {
  return `${pod}\u0000${container}\u0000${probe}`;
}

/** Per probe, what its worker depends on (`probeDependencies`, which the Manager fingerprints). */
function probePrints(desired: readonly DesiredPod[]): Map<string, string> {
  const prints = new Map<string, string>();
  for (const pod of desired) {
    for (const container of pod.spec.containers) {
      if (!PROBING_CONTAINERS.includes(container.kind)) continue;
      for (const probe of container.probes) {
        prints.set(probeKey(pod.identity.name, container.name, probe.type), probeDependencies(container, probe));
      }
    }
  }
  return prints;
}

/** Each pod's first placement in the snapshot (the first pod of a name wins, as a lookup by name finds it). */
function placementsOf(desired: readonly DesiredPod[], snapshot: ManifestSnapshot | undefined): Map<string, PlacedPodSpec | undefined> {
  const bySpec = new Map<PodSpecModel, PlacedPodSpec>();
  for (const placed of snapshot?.podSpecs ?? []) if (!bySpec.has(placed.spec)) bySpec.set(placed.spec, placed);
  const byName = new Map<string, PlacedPodSpec | undefined>();
  for (const pod of desired) if (!byName.has(pod.identity.name)) byName.set(pod.identity.name, snapshot && bySpec.get(pod.spec));
  return byName;
}

/** Y01: the text does not parse as YAML (a half-typed line). */
function holdsSyntaxError(snapshot: ManifestSnapshot): boolean {
  return snapshot.findings.some((finding) => finding.rule === 'Y01');
}
