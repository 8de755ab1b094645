import * as vscode from 'vscode';
import type { ManifestSnapshot, PlacedPodSpec } from '../../core/editor/incrementalChecker';
import type { Disposable } from '../../core/base/disposable';
import type { EngineEvent, PauseLine } from '../../core/engine/events';
import { type DesiredPod, desiredPodsOf, Manager, podRuntimes, probeDependencies } from '../../core/engine/manager';
import type { PodRuntime, PodRuntimeOptions, RestartOutcome } from '../../core/engine/podRuntime';
import { type PodSpecModel, PROBING_CONTAINERS, type ProbeType } from '../../core/manifest';
import type { NextEvent, Playback } from '../../core/session/playback';
import type { SessionClock, SessionSnapshot } from '../../core/session/snapshot';
import { SessionState } from '../../core/session/state';
import { DEFAULT_TIMELINE_CAPACITY, TimelineStore } from '../../core/timeline/store';
import { baseName } from '../documents/fileNames';
import { isLoggedEvent, type LoggedEvent } from './kubeletEventLog';
import { Throttle } from './throttle';

/** Where probes go: this machine, a scenario on a virtual clock, or pods through kubectl. */
export type SessionKind = 'local' | 'simulated' | 'cluster';

export type AttemptEvent = Extract<EngineEvent, { type: 'attempt' }>;

/** What differs between sessions: time, who runs the pods and where probes go, what else lives as long. */
export type SessionEngine = OwnPods | DrivenPods;

interface EngineBase {
  readonly clock: PodRuntimeOptions['clock'];
  /** Clock time of t = 0. */
  readonly epoch: number;
  /** Disposed with the session, after the engine. */
  readonly owned: readonly Disposable[];
  /** A simulation's virtual clock as it follows real time: the session plays it, the user pauses it. */
  readonly playback?: Playback;
}

/** Our kubelet runs the pods: a Manager of our pod runtimes, given everything they take but the event sink (the session's own). */
export interface OwnPods extends EngineBase, Omit<PodRuntimeOptions, 'emit' | 'backoff'> {
  readonly driver?: undefined;
}

/** A cluster's kubelet runs the pods: given the session's event sink, `driver` takes each sync of the manifest's pods. */
export interface DrivenPods extends EngineBase {
  readonly driver: (emit: (event: EngineEvent) => void) => PodDriver;
}

/** What a session syncs the manifest's pods into. */
export interface PodDriver extends Disposable {
  sync(desired: readonly DesiredPod[]): void;
}

/** A simulation's controls; each change reaches the views at once. */
export interface SimulationControls {
  readonly paused: boolean;
  /** Virtual seconds per real second. */
  readonly speed: number;
  pause(): void;
  resume(): void;
  /** `false` for a speed that is not a positive number. */
  setSpeed(speed: number): boolean;
  /** Pauses and jumps the virtual clock to the next thing the engine reports. */
  nextEvent(): NextEvent;
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
  /** Sees each kubelet event (ours, and in a cluster the cluster's, predictions, disagreements) as it happens, for the output channel. */
  readonly onKubeletEvent?: (session: ProbingSession, event: LoggedEvent) => void;
  /** Events kept for the timeline (`probeLens.timeline.maxEvents`); default `DEFAULT_TIMELINE_CAPACITY`. */
  readonly timelineCapacity?: number;
}

/** Sees every event of a session as it is recorded. */
export type RecordListener = (event: EngineEvent) => void;

/** Sees each event before it is recorded, and returns it as it is to be recorded. */
export type EventMarker = (event: EngineEvent) => EngineEvent;

/**
 * A session publishes its snapshot at most this often, however fast it goes: the one cadence at
 * which the Probes view, the lenses, the status bar and the hovers all redraw, from that snapshot.
 */
export const SNAPSHOT_INTERVAL_MS = 250;
/** Real milliseconds between two steps of a simulation's clock. */
const TICK_MS = 100;
const WALL_CLOCK: SessionClock = { kind: 'wall' };

/**
 * One probing session over one manifest: the engine (a `Manager` of pod runtimes on a clock and a
 * target), its events folded into a `SessionState` — published as an immutable snapshot at one
 * cadence — and kept in a bounded log, and what the editor needs to place them (the manifest as
 * last synced). Disposing it stops everything it started: workers, timers, attempts in flight,
 * a simulation's ticker and its subscriptions; its last snapshot stays, marked ended.
 */
export class ProbingSession implements vscode.Disposable {
  /** Its events for the timeline, bounded (`TimelineStore` drops the largest lane's oldest first). */
  readonly events: TimelineStore;
  /** Wall-clock time of t = 0 (epoch ms). */
  readonly startedAt = Date.now();
  /** A plain array, not an emitter: `record` runs for every event, and usually nobody listens. */
  private recordListeners: RecordListener[] = [];
  /** The breakpoint guard's: marks attempts that ran while a debugger held the app. */
  private marker: EventMarker | undefined;
  /** Our kubelet's pod runtimes; `undefined` when a driver runs the pods. */
  private readonly manager: Manager<PodRuntime> | undefined;
  private readonly driver: PodDriver;
  private readonly live: SessionState;
  private published: SessionSnapshot;
  private readonly changes = new vscode.EventEmitter<void>();
  private readonly stops = new vscode.EventEmitter<void>();
  private readonly throttle = new Throttle(SNAPSHOT_INTERVAL_MS, () => this.publish());
  private ticker: NodeJS.Timeout | undefined;
  private endedSeconds: number | undefined;
  private readonly owned: vscode.Disposable[] = [];
  private desired: readonly DesiredPod[] = [];
  /** Per probe key, what its worker depends on: an edit that changes it starts the probe's counts afresh. */
  private prints = new Map<string, string>();
  private current: ManifestSnapshot | undefined;
  /** Pod name → where it sits in `current`; built on first use after each sync (views ask per pod, several times a second). */
  private placements: Map<string, PlacedPodSpec | undefined> | undefined;
  private stopped = false;
  private stoppedBecause: string | undefined;

  /** A new snapshot is published (`state`): at most every `SNAPSHOT_INTERVAL_MS`, and at once after a control. */
  readonly onDidChange = this.changes.event;
  /** A simulation's pause, speed and step controls; `undefined` on the wall clock. */
  readonly simulation: SimulationControls | undefined;
  readonly onDidStop = this.stops.event;

  constructor(
    readonly options: SessionOptions,
    private readonly engine: SessionEngine,
  ) {
    this.events = new TimelineStore(options.timelineCapacity ?? DEFAULT_TIMELINE_CAPACITY);
    this.live = new SessionState(engine.driver ? 'cluster' : engine.processes.carriesOutKills ? 'carried-out' : 'reported');
    const emit = (event: EngineEvent) => this.record(event);
    if (engine.driver) {
      this.manager = undefined;
      this.driver = engine.driver(emit);
    } else {
      const { clock, epoch, kubeletStartedAt, random, target, processes, idScheme } = engine;
      this.manager = new Manager(podRuntimes({ clock, epoch, kubeletStartedAt, random, target, processes, emit, idScheme }));
      this.driver = this.manager;
    }
    const playback = engine.playback;
    this.simulation = playback && this.controls(playback);
    if (playback) {
      playback.tick(performance.now());
      this.ticker = setInterval(() => {
        playback.tick(performance.now());
        if (!playback.isPaused) this.throttle.poke();
      }, TICK_MS);
    }
    this.published = this.live.snapshot(this.moment());
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

  /** Session seconds per real second (a simulation's speed now; 1 on the wall clock). */
  get rate(): number {
    return this.engine.playback?.speed ?? 1;
  }

  /**
   * The snapshot last published: what the Probes view, the lenses, the status bar and the hovers
   * render from. After the session stopped, its last state, marked ended.
   */
  get state(): SessionSnapshot {
    return this.published;
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
    return this.manager?.runtimes ?? [];
  }

  /** The snapshot the pods were last synced from. */
  get snapshot(): ManifestSnapshot | undefined {
    return this.current;
  }

  /** Seconds since the session began, on its clock (virtual in a simulation); once stopped, when it stopped. */
  get elapsedSeconds(): number {
    return this.endedSeconds ?? (this.engine.clock.now() - this.engine.epoch) / 1000;
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
    this.driver.sync(desired);
    this.throttle.poke();
  }

  /** The last attempt of a probe (of any container instance) as last published, if it has had one since it was last edited. */
  lastAttempt(pod: string, container: string, probe: ProbeType): AttemptEvent | undefined {
    return this.published.pods.get(pod)?.containers.get(container)?.probes.get(probe)?.newest;
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
    const runtime = this.runtimes.find((r) => r.identity.name === pod);
    const outcome = runtime ? runtime.restartContainer(container) : 'unknown-pod';
    this.publish();
    return outcome;
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

  /**
   * Has `marker` see every event first, and record what it returns, until disposed (one marker at
   * a time): the breakpoint guard marks the attempts that ran while a debugger held the app
   * (`paused: true`), which the timeline, the state and the recording all then see.
   */
  markEvents(marker: EventMarker): vscode.Disposable {
    this.marker = marker;
    return new vscode.Disposable(() => {
      if (this.marker === marker) this.marker = undefined;
    });
  }

  /** Records a line from outside the engine: a debugger paused or let go of the program under probe. */
  note(line: PauseLine): void {
    if (!this.stopped) this.record(line);
  }

  /** Ties something to the session's lifetime: disposed when it stops. */
  own(disposable: vscode.Disposable): void {
    if (this.stopped) disposable.dispose();
    else this.owned.push(disposable);
  }

  /**
   * Stops the session because it cannot go on (the cluster refuses a stream its probes need):
   * as `dispose`, with the reason kept in its last snapshot for every view to say.
   */
  fail(reason: string): void {
    if (this.stopped) return;
    this.stoppedBecause = reason;
    this.dispose();
  }

  /** Why the session stopped on its own (`fail`); `undefined` while it runs and after a stop asked for. */
  get failure(): string | undefined {
    return this.stoppedBecause;
  }

  dispose(): void {
    if (this.stopped) return;
    const endedSeconds = this.elapsedSeconds;
    this.stopped = true;
    clearInterval(this.ticker);
    this.driver.dispose();
    // A driver disposes of its own target.
    if (!this.engine.driver) this.engine.target.dispose();
    for (const d of this.engine.owned) d.dispose();
    for (const d of this.owned.splice(0)) d.dispose();
    this.throttle.dispose();
    // The last state stays to be reviewed: frozen at the moment it stopped (the registry says so).
    this.endedSeconds = endedSeconds;
    this.published = this.live.snapshot({ ...this.moment(), endedAt: Date.now(), ...(this.stoppedBecause !== undefined ? { stoppedBecause: this.stoppedBecause } : {}) });
    this.recordListeners = [];
    this.stops.fire();
    this.stops.dispose();
    this.changes.dispose();
  }

  private record(engineEvent: EngineEvent): void {
    const event = this.marker ? this.marker(engineEvent) : engineEvent;
    this.live.apply(event);
    this.events.push(event);
    const listeners = this.recordListeners;
    for (let i = 0; i < listeners.length; i++) (listeners[i] as RecordListener)(event);
    if (isLoggedEvent(event)) this.options.onKubeletEvent?.(this, event);
    this.throttle.poke();
  }

  /** A new snapshot, if anything changed since the last one, and the views told. */
  private publish(): void {
    if (this.stopped) return;
    const next = this.live.snapshot(this.moment());
    if (next === this.published) return;
    this.published = next;
    this.changes.fire();
  }

  private moment(): { t: number; clock: SessionClock } {
    const playback = this.engine.playback;
    return { t: this.elapsedSeconds, clock: playback ? { kind: 'virtual', paused: playback.isPaused, speed: playback.speed } : WALL_CLOCK };
  }

  /** The controls of a simulation's playback: each publishes what it changed at once. */
  private controls(playback: Playback): SimulationControls {
    const publishing = <T>(action: () => T): T => {
      const result = action();
      this.publish();
      return result;
    };
    return {
      get paused() {
        return playback.isPaused;
      },
      get speed() {
        return playback.speed;
      },
      pause: () => publishing(() => playback.pause()),
      resume: () => publishing(() => playback.resume()),
      setSpeed: (speed) => publishing(() => playback.setSpeed(speed)),
      nextEvent: () =>
        publishing(() => {
          if (this.stopped) return { ok: false, reason: 'the simulation has stopped' } as const;
          // `total` counts every event recorded, those the timeline store has since dropped too.
          const before = this.events.total;
          return playback.nextEvent(() => this.events.total > before);
        }),
    };
  }

  private forgetEditedProbes(desired: readonly DesiredPod[]): void {
    const next = probePrints(desired);
    for (const [key, print] of this.prints) {
      if (next.get(key) === print) continue;
      const [pod, container, probe] = key.split('\u0000') as [string, string, ProbeType];
      this.live.forgetProbe(pod, container, probe);
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
