import * as vscode from 'vscode';
import type { ManifestSnapshot } from '../../core/editor/incrementalChecker';
import { attemptMessage, runWithRetries } from '../../core/engine/attempt';
import { type DesiredPod, desiredPodsOf } from '../../core/engine/manager';
import type { AttemptRequest } from '../../core/engine/target';
import { connectToCluster } from '../../core/cluster/connect';
import type { KubeContexts } from '../../core/kubeclient/kubeContexts';
import type { ClusterNotice } from '../../core/cluster/clusterProbing';
import { namespacesText, noticeText, proxyStateTeller } from '../../core/cluster/noticeText';
import { RealClock } from '../../core/base/clock';
import { PROBING_CONTAINERS, type ProbeType } from '../../core/manifest';
import type { ProbeOutcome } from '../../core/probers/types';
import { matchScenario } from '../../core/scenario/match';
import type { KubectlFailure } from '../../core/kubeclient/kubectl';
import { LocalTarget, type PortRefusal } from '../../core/targets/local';
import { baseName } from '../documents/fileNames';
import { isManifestLanguage, type ManifestModels } from '../documents/manifestModels';
import { execCommandsOf } from '../safety/execCommands';
import type { ExecConsent, ExecDecision } from '../safety/execConsent';
import type { ExecGate } from '../safety/execGate';
import { SessionExecGuard } from '../safety/sessionExecGuard';
import { probingRefusal } from '../safety/trust';
import { type ProbeLensSettings, readSettings } from '../base/settings';
import { kubeletEventLogger } from './kubeletEventLog';
import { clusterDetail, createClusterSession } from './clusterSession';
import { forwardNotices } from './forwardNotices';
import { checkLocalHost, createLocalSession, localTargetOptions, podsTitle } from './localSession';
import { KUBECTL_NAMED_BY, kubectlRemedy, notify, type Remedy, remedyActions, stderrBlock } from './notices';
import { PortMapHint } from './portMapHint';
import type { ProbingSession } from './probingSession';
import { readScenario } from './scenarioFiles';
import type { Sessions } from './sessions';
import { startSimulatedSession } from './simulatedSession';

/**
 * Expected failures of starting something: a reason the user can act on, and what helps
 * (`remedy`: a setting to open, more in the log) for the buttons of its notification.
 */
export type Outcome<T> = { readonly ok: true; readonly value: T } | Refusal;

/** Why something was not done, and what the user can do about it. */
export type Refusal = { readonly ok: false; readonly reason: string; readonly remedy?: Remedy };

export interface LocalStart {
  readonly uri: vscode.Uri;
  /** Pod names (as `desiredPodsOf` names them); absent: every pod of the manifest. */
  readonly pods?: readonly string[];
  /** `vscode.workspace.isTrusted`, passed in so the refusal is tested without toggling trust. */
  readonly trusted: boolean;
}

export interface SimulatedStart {
  readonly uri: vscode.Uri;
  readonly pods?: readonly string[];
  readonly scenario: vscode.Uri;
  /** Virtual seconds per real second. */
  readonly speed: number;
  readonly seed?: number;
}

export interface ProbeOnce {
  readonly uri: vscode.Uri;
  readonly pod: string;
  readonly container: string;
  readonly probe: ProbeType;
  readonly trusted: boolean;
}

/** A manifest as read for a start: its document and the pods of one version of it. */
export interface LoadedManifest {
  readonly document: vscode.TextDocument;
  /** Every pod of that version, as `desiredPodsOf` names them. */
  readonly all: readonly DesiredPod[];
  /** The chosen ones (all, when none are named). */
  readonly pods: readonly DesiredPod[];
}

export interface LocalStarted {
  readonly session: ProbingSession;
  /** What became of the manifest's exec probes. */
  readonly exec: ExecDecision | 'pending';
}

export interface ProbeOnceResult {
  readonly outcome: ProbeOutcome;
  readonly durationMs: number;
  /** Handler calls, errors retried (P2). */
  readonly tries: number;
  /** The kubelet's event text for it (`Readiness probe failed: …`), or a success line. */
  readonly message: string;
  readonly exec: ExecDecision;
  /** Nothing listened on the loopback port probed (connection refused): where, to offer mapping it. */
  readonly refused?: PortRefusal;
}

/** A one-off attempt is the first (and only) instance of its made-up container. */
const ONCE_INSTANCE = 0;

/**
 * Starts sessions and one-off probes: every decision before anything runs (trust, host, which
 * pods, exec consent), then the session, registered and following its manifest's edits. Failures
 * to start are values (with their `remedy`), shown by the command; what a running session runs
 * into is told here (the exec consent question, a port nothing listens on, a port-forward down,
 * a saved scenario that does not play).
 */
export class SessionLauncher {
  constructor(
    private readonly models: ManifestModels,
    private readonly sessions: Sessions,
    private readonly consent: ExecConsent,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async startLocal(request: LocalStart): Promise<Outcome<LocalStarted>> {
    const preflight = localPreflight(request.uri, request.trusted);
    if (!preflight.ok) return preflight;
    const settings = preflight.value;
    const manifest = await this.manifest(request.uri, request.pods);
    if (!manifest.ok) return manifest;
    const { document, all, pods } = manifest.value;

    const { session, gate } = createLocalSession(
      { id: this.sessions.nextId('local'), uri: request.uri, pods: request.pods, detail: settings.localHost, onKubeletEvent: kubeletEventLogger(this.log), timelineCapacity: settings.timelineMaxEvents },
      settings,
      new PortMapHint(request.uri, this.log).notice,
    );
    return this.begin({ session, gate, document, all }, `${podsTitle(pods)} probed at ${settings.localHost}${portMapText(settings.portMap)}`, (exec) => {
      if (exec === 'refused' || exec === 'disabled') this.log.info(`[${baseName(request.uri)}] exec probes will not run (${exec === 'disabled' ? 'probeLens.exec.probes is never' : 'not allowed'})`);
    });
  }

  /**
   * Probes the manifest's pods in the cluster, watched live through one `kubectl proxy`: trust
   * first, then the connection (context, proxy, the API's version), then exec consent as for a
   * local session, then the pods are listed and probing starts.
   */
  async startCluster(request: LocalStart & { readonly context?: string; readonly kubeconfig?: KubeContexts }): Promise<Outcome<LocalStarted>> {
    const refusal = probingRefusal(request.trusted);
    if (refusal) return { ok: false, reason: refusal, remedy: { trust: true } };
    const settings = readSettings(request.uri);
    const manifest = await this.manifest(request.uri, request.pods);
    if (!manifest.ok) return manifest;
    const { document, pods } = manifest.value;
    const name = baseName(request.uri);
    if (!pods.some((p) => p.spec.containers.some((c) => c.probes.length > 0))) return { ok: false, reason: noPodReason('no container of this manifest has a probe') };
    const context = request.context ?? settings.clusterContext;
    const connected = await connectToCluster({
      kubectl: { path: settings.kubectlPath, env: process.env, namedBy: KUBECTL_NAMED_BY },
      ...(context !== undefined ? { context } : {}),
      ...(settings.clusterNamespace !== undefined ? { namespace: settings.clusterNamespace } : {}),
      ...(request.kubeconfig ? { kubeconfig: request.kubeconfig } : {}),
      allowExec: true,
      clock: new RealClock(),
      onProxyState: proxyStateTeller((text, down) => this.log[down ? 'warn' : 'info'](`[${name}] ${text}`)),
    });
    if (!connected.ok) return this.kubectlFailed(name, { error: connected.failure.error, command: `kubectl proxy${context ? ` --context ${context}` : ''}`, stderr: connected.failure.detail });
    const connection = connected.value;
    const looked = namespacesText(pods, connection.namespace, settings.clusterNamespace !== undefined ? 'the probeLens.cluster.namespace setting' : "the context's");
    this.log.info(`[${name}] cluster: context ${connection.context}, Kubernetes ${connection.version.gitVersion}; pods looked for in ${looked}`);
    // What the first listing found wrong: why nothing can be probed, if nothing can.
    const listing: { failure?: ClusterNotice & { kind: 'watch-failed' }; missing: string[] } = { missing: [] };
    // The session is made below; a refusal that ends it may come while it is being made.
    let made: ProbingSession | undefined;
    let refusedFirst: string | undefined;
    const { session, gate, probing } = createClusterSession(
      { id: this.sessions.nextId('cluster'), uri: request.uri, pods: request.pods, detail: clusterDetail(connection), onKubeletEvent: kubeletEventLogger(this.log), timelineCapacity: settings.timelineMaxEvents },
      connection,
      { minorVersion: settings.minorVersionSet ? settings.minorVersion : undefined, allPods: settings.clusterAllPods },
      (notice) => {
        this.log[NOTICE_LEVEL[notice.kind]](`[${name}] ${noticeText(notice)}`);
        if (notice.kind === 'watch-failed') listing.failure ??= notice;
        if (notice.kind === 'no-pod') listing.missing.push(notice.why);
        if (notice.kind === 'events-forbidden') void notify('warning', notice.sentence, remedyActions({ output: true }, this.log));
        if (notice.kind !== 'forbidden') return;
        if (made) this.failed(made, notice.sentence);
        else refusedFirst ??= notice.sentence;
      },
    );
    made = session;
    if (refusedFirst !== undefined) this.failed(session, refusedFirst);
    session.own(forwardNotices(session, name, this.log));
    // Connecting took a while: the exec question is about the manifest as it is now.
    const all = this.allPods(this.models.get(document));
    const what = `${podsTitle(pods)} in ${clusterDetail(connection)} through the API server (restarts are the cluster kubelet's: predicted, then confirmed or not)`;
    return this.begin({ session, gate, document, all }, what, async (): Promise<Refusal | undefined> => {
      // The pods are looked for once the exec question is answered, and probing starts with them.
      session.sync(this.models.get(document));
      await probing.whenListed();
      if (probing.probedPods > 0) return undefined;
      if (listing.failure) return this.kubectlFailed(name, { error: listing.failure.error, command: 'list pods (through kubectl proxy)', stderr: listing.failure.detail });
      return { ok: false, reason: noPodReason(listing.missing.join('; ') || 'no pod of this manifest in the cluster') };
    });
  }

  /**
   * `loaded`: the manifest of `request.uri` as the caller already read it (its pods are chosen
   * again by `request.pods`); without it, the manifest is read here.
   */
  async startSimulated(request: SimulatedStart, loaded?: LoadedManifest): Promise<Outcome<ProbingSession>> {
    if (!(request.speed > 0 && Number.isFinite(request.speed))) return { ok: false, reason: `the speed must be a positive number, not ${request.speed}` };
    // A manifest closed while the user was choosing is opened again, as a start without `loaded` would.
    const manifest = loaded && !loaded.document.isClosed ? selectPods(request.uri, loaded.document, loaded.all, request.pods) : await this.manifest(request.uri, request.pods);
    if (!manifest.ok) return manifest;
    const { document, pods, all } = manifest.value;
    const read = await readScenario(request.scenario);
    // Read against the whole manifest: one scenario file speaks for all of its pods.
    const scenario = read.ok ? matchScenario(read.scenario, all.map((p) => p.spec)) : read;
    if (!scenario.ok) return { ok: false, reason: `${baseName(request.scenario)}: ${scenario.error}` };
    const session = startSimulatedSession(
      { id: this.sessions.nextId('simulated'), uri: request.uri, pods: request.pods, detail: `${request.speed}× · ${baseName(request.scenario)}`, onKubeletEvent: kubeletEventLogger(this.log), timelineCapacity: readSettings(request.uri).timelineMaxEvents },
      this.models.get(document),
      { scenario: scenario.scenario, speed: request.speed, seed: request.seed ?? 1 },
    );
    this.follow(session);
    // A saved scenario plays again from t = 0: the scenario is the script the whole run follows.
    session.own(
      vscode.workspace.onDidSaveTextDocument((saved) => {
        if (saved.uri.toString() !== request.scenario.toString() || session.isStopped) return;
        void this.startSimulated(request).then((restarted) => {
          if (!restarted.ok) void notify('warning', `the saved ${baseName(request.scenario)} was not played: ${restarted.reason} (the simulation goes on with the previous version; fix it and save again)`);
        });
      }),
    );
    this.register(session, `${podsTitle(pods)} at ${request.speed}× with ${baseName(request.scenario)}`);
    return { ok: true, value: session };
  }

  /** One attempt of one probe, with its retries (P2), against this machine; nothing is left running after. */
  async runOnce(request: ProbeOnce): Promise<Outcome<ProbeOnceResult>> {
    const preflight = localPreflight(request.uri, request.trusted);
    if (!preflight.ok) return preflight;
    const settings = preflight.value;
    const manifest = await this.manifest(request.uri, [request.pod]);
    if (!manifest.ok) return manifest;
    const { all, pods } = manifest.value;
    const pod = pods[0] as DesiredPod;
    const container = pod.spec.containers.find((c) => c.name === request.container && PROBING_CONTAINERS.includes(c.kind));
    if (!container) return { ok: false, reason: `pod ${pod.identity.name} has no container named ${request.container} that runs probes` };
    const probe = container.probe(request.probe);
    if (!probe) return { ok: false, reason: `container ${container.name} has no ${request.probe} probe` };

    const exec = probe.effective.handler?.type === 'exec' ? await this.consent.decide(request.uri, execCommandsOf(all), settings.execProbes) : 'none';
    let refused: PortRefusal | undefined;
    const target = new LocalTarget({ ...localTargetOptions(settings, exec === 'allowed'), onNothingListening: (refusal) => (refused = refusal) });
    const began = performance.now();
    const attempt: AttemptRequest = {
      pod: pod.identity,
      podSpec: pod.spec,
      container,
      type: probe.type,
      probe: probe.effective,
      containerId: `local://${pod.identity.name}/${container.name}/once`,
      startedAt: began,
      instance: ONCE_INSTANCE,
    };
    const { outcome, tries } = await new Promise<{ outcome: ProbeOutcome; tries: number }>((resolve) => runWithRetries((done) => target.attempt(attempt, done), (o, n) => resolve({ outcome: o, tries: n })));
    target.dispose();
    const durationMs = performance.now() - began;
    const message = attemptMessage(probe.type, outcome);
    const where = `${pod.identity.name}/${container.name}`;
    const line = `[${baseName(request.uri)}] run once ${where} ${probe.type}: ${outcome.result} in ${Math.round(durationMs)} ms (${tries} ${tries === 1 ? 'try' : 'tries'}) — ${message}`;
    if (outcome.result === 'success') this.log.info(line);
    else this.log.warn(line);
    return { ok: true, value: { outcome, durationMs, tries, message, exec, ...(refused ? { refused } : {}) } };
  }

  /** A session that cannot go on stops, and says why: an error, with the way to the log. */
  private failed(session: ProbingSession, reason: string): void {
    if (session.isStopped) return;
    session.fail(reason);
    void notify('error', reason, remedyActions({ output: true }, this.log));
  }

  /** kubectl's whole complaint goes to the log; the user gets its meaning in a sentence, and a way to the log. */
  private kubectlFailed(name: string, failure: KubectlFailure): { ok: false; reason: string; remedy: Remedy } {
    const { error, command, stderr } = failure;
    this.log.error(`[${name}] ${command} failed (${error.kind}): ${error.sentence}${stderrBlock(stderr)}`);
    return { ok: false, reason: error.sentence, remedy: kubectlRemedy(error) };
  }

  /** The manifest's document and the pods of its current version: all, and those named (all, when none are). */
  async manifest(uri: vscode.Uri, names?: readonly string[]): Promise<Outcome<LoadedManifest>> {
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch (error) {
      return { ok: false, reason: `cannot open ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!isManifestLanguage(document)) return { ok: false, reason: `${baseName(uri)} is not a YAML manifest: choose a .yaml or .yml Kubernetes manifest` };
    return selectPods(uri, document, this.allPods(this.models.get(document)), names);
  }

  /**
   * Exec consent, then (once `ready` has run) the session follows its manifest and is registered,
   * unless the manifest was closed or the session stopped meanwhile. `all`: the manifest's pods,
   * whose exec commands are asked about.
   */
  private async begin(
    started: { session: ProbingSession; gate: ExecGate; document: vscode.TextDocument; all: readonly DesiredPod[] },
    what: string,
    ready: (exec: LocalStarted['exec']) => void | Promise<void | Refusal>,
  ): Promise<Outcome<LocalStarted>> {
    const { session, gate, document, all } = started;
    const uri = session.uri;
    const guard = new SessionExecGuard(uri, gate, this.consent, () => readSettings(uri).execProbes);
    session.own(guard);
    // The question comes before the first probe: nothing runs until it is answered.
    const exec = await guard.review(execCommandsOf(all));
    const refused = await ready(exec);
    if (refused) {
      session.dispose();
      return refused;
    }
    if (document.isClosed || session.isStopped) {
      session.dispose();
      return { ok: false, reason: `${baseName(uri)} was closed before probing started: open it and start again` };
    }
    this.follow(session, (snapshot) => void guard.review(execCommandsOf(this.allPods(snapshot))));
    session.sync(this.models.get(document));
    this.register(session, what);
    return { ok: true, value: { session, exec } };
  }

  /**
   * Re-syncs the session on every re-read of its manifest (the Manager restarts only what changed),
   * then runs `after`. A closed document keeps its pods running as last read.
   */
  private follow(session: ProbingSession, after?: (snapshot: ManifestSnapshot) => void): void {
    const key = session.uri.toString();
    session.own(
      this.models.onDidUpdate(({ document, snapshot }) => {
        if (document.uri.toString() !== key || document.isClosed) return;
        session.sync(snapshot);
        after?.(snapshot);
      }),
    );
  }

  /** Into the registry (replacing the manifest's previous session), with its start and stop logged. */
  private register(session: ProbingSession, what: string): void {
    this.sessions.add(session);
    this.log.info(`[${session.label}] ${session.kind} session ${session.id} started: ${what}`);
    session.onDidStop(() => this.log.info(`[${session.label}] ${session.kind} session ${session.id} stopped at t=${session.elapsedSeconds.toFixed(1)}s`));
  }

  private allPods(snapshot: ManifestSnapshot): DesiredPod[] {
    return desiredPodsOf(snapshot.documents);
  }
}

/** How loud each cluster notice is in the log. */
const NOTICE_LEVEL: Readonly<Record<ClusterNotice['kind'], 'info' | 'warn' | 'error'>> = {
  bound: 'info',
  'watch-recovered': 'info',
  'no-pod': 'warn',
  'watch-failed': 'warn',
  'events-forbidden': 'warn',
  forbidden: 'error',
};

/** Trust, then the settings that say where local probes may go (the pod IP stands for `probeLens.local.host`). */
function localPreflight(uri: vscode.Uri, trusted: boolean): Outcome<ProbeLensSettings> {
  const refusal = probingRefusal(trusted);
  if (refusal) return { ok: false, reason: refusal, remedy: { trust: true } };
  const settings = readSettings(uri);
  const host = checkLocalHost(settings);
  return host.ok ? { ok: true, value: settings } : { ...host, remedy: { setting: 'probeLens.local.allowedHosts' } };
}

/** Why no pod of the manifest can be probed in the cluster, with what to do about it. */
function noPodReason(reason: string): string {
  if (reason.startsWith('no Running pod')) return `${reason}: wait until one runs, then start again`;
  if (reason.startsWith('no pod') || reason.startsWith('no Pod')) return `${reason}: apply the manifest to the cluster first, or probe your app on this machine with Start Probing`;
  if (reason.startsWith('no container')) return `${reason}: add a livenessProbe, readinessProbe or startupProbe to probe it`;
  return reason;
}

/** The named pods of a manifest (all, when none are named), or why there are none to run. */
function selectPods(uri: vscode.Uri, document: vscode.TextDocument, all: readonly DesiredPod[], names?: readonly string[]): Outcome<LoadedManifest> {
  if (all.length === 0) return { ok: false, reason: `${baseName(uri)} has no pod spec to probe: it needs a Pod, or a workload (Deployment, StatefulSet, Job …) with containers` };
  if (!names) return { ok: true, value: { document, all, pods: all } };
  const missing = names.filter((name) => !all.some((p) => p.identity.name === name));
  if (missing.length > 0) return { ok: false, reason: `${baseName(uri)} has no pod named ${missing.join(', ')} (it has ${all.map((p) => p.identity.name).join(', ')})` };
  return { ok: true, value: { document, all, pods: all.filter((p) => names.includes(p.identity.name)) } };
}

function portMapText(portMap: ReadonlyMap<number, number>): string {
  return portMap.size === 0 ? '' : ` (ports ${[...portMap].map(([c, l]) => `${c}→${l}`).join(', ')})`;
}
