import * as vscode from 'vscode';
import type { RestartOutcome } from '../../core/engine/podRuntime';
import type { ExecConsent } from '../safety/execConsent';
import { probingRefusal } from '../safety/trust';
import { type KubeContexts, readContexts } from '../../core/kubeclient/kubeContexts';
import type { LocalStarted, Outcome, ProbeOnceResult, SessionLauncher } from '../sessions/launcher';
import { readSettings } from '../base/settings';
import type { ProbingSession } from '../sessions/probingSession';
import { baseName } from '../documents/fileNames';
import { createScenario, scenariosBeside } from '../sessions/scenarioFiles';
import { scenarioFileName } from '../sessions/scenarioTemplate';
import type { Sessions } from '../sessions/sessions';
import { lanesOf } from '../timeline/manifestLanes';
import type { TimelinePanel } from '../timeline/timelinePanel';
import type { TimelinePanels } from '../timeline/timelinePanels';
import { MAP_PORT, mapPort } from '../sessions/portMapHint';
import { KUBECTL_NAMED_BY, notify, openSettingAction, type Remedy, remedyActions } from '../sessions/notices';
import { activeManifest, type CommandTarget, readTarget, sessionOf } from './args';
import { type Picked, pickClusterContext, pickContainer, pickManifest, pickPods, pickProbe, pickScenario, pickSession, pickSpeed } from './pickers';
import { COMMANDS } from '../base/commandIds';

export interface ProbingCommandDeps {
  readonly launcher: SessionLauncher;
  readonly sessions: Sessions;
  readonly consent: ExecConsent;
  readonly log: vscode.LogOutputChannel;
  readonly timelines: TimelinePanels;
}

/**
 * The probing commands. Each takes the arguments `readTarget` reads (a tree row, a `Uri`,
 * `(uri, pod, container, probe)` or an object) so tests and code lenses drive them without UI,
 * asks with a picker only for what it was not given, and resolves with what it did
 * (`undefined` when it did nothing) — messages are shown, never awaited.
 */
export function registerProbingCommands(deps: ProbingCommandDeps): vscode.Disposable {
  const commands = new ProbingCommands(deps);
  const register = (id: string, run: (...args: unknown[]) => unknown) => vscode.commands.registerCommand(id, run);
  return vscode.Disposable.from(
    register(COMMANDS.startProbing, (...args) => commands.startProbing(readTarget(args))),
    register(COMMANDS.startProbingCluster, (...args) => commands.startProbing(readTarget(args), 'cluster')),
    register(COMMANDS.stopProbing, (...args) => commands.stopProbing(readTarget(args))),
    register(COMMANDS.runProbeOnce, (...args) => commands.runProbeOnce(readTarget(args))),
    register(COMMANDS.simulate, (...args) => commands.simulate(readTarget(args))),
    register(COMMANDS.restartContainer, (...args) => commands.restartContainer(readTarget(args))),
    register(COMMANDS.openTimeline, (...args) => commands.openTimeline(readTarget(args))),
    register(COMMANDS.showOutput, () => deps.log.show(true)),
    register(COMMANDS.forgetExecConsent, (...args) => commands.forgetExecConsent(readTarget(args))),
  );
}

class ProbingCommands {
  constructor(private readonly deps: ProbingCommandDeps) {}

  /** `startProbing([uri | {uri, pod | pods}])` → the session's `LocalStarted`, or `undefined`; `cluster`: the pods in the cluster, through kubectl. */
  async startProbing(target: CommandTarget, where: 'local' | 'cluster' = 'local'): Promise<LocalStarted | undefined> {
    const refusal = probingRefusal(vscode.workspace.isTrusted);
    if (refusal) return this.fail(refusal, { trust: true });
    const action = where === 'cluster' ? 'Start Probing in the Cluster' : 'Start Probing';
    const uri = target.uri ?? activeManifest() ?? (await this.manifestFromWorkspace(action));
    if (!uri) return undefined;
    const pods = await this.choosePods(uri, target, action);
    if (!pods) return undefined;
    const request = { uri, ...(pods.value ? { pods: pods.value } : {}), trusted: vscode.workspace.isTrusted };
    let started: Outcome<LocalStarted>;
    if (where === 'cluster') {
      const choice = target.context !== undefined ? { value: { context: target.context } } : await this.chooseContext(uri, action);
      if (!choice) return undefined;
      started = await this.deps.launcher.startCluster({ ...request, ...choice.value });
    } else started = await this.deps.launcher.startLocal(request);
    if (!started.ok) return this.fail(started.reason, started.remedy);
    const { exec } = started.value;
    if (exec === 'refused') inform(`exec probes of ${baseName(uri)} will not run: you did not allow them. They show as errors; start again to be asked again.`);
    if (exec === 'disabled') void notify('info', `exec probes of ${baseName(uri)} will not run because probeLens.exec.probes is "never": set it to "ask" to run them`, [openSettingAction('probeLens.exec.probes')]);
    return started.value;
  }

  /**
   * The context to probe in: the setting's, else the user's pick among the kubeconfig's (read by
   * kubectl once: the start connects with what was read; the current one first). A kubeconfig
   * kubectl cannot read is not asked about: the start then fails with kubectl's own reason.
   */
  private async chooseContext(uri: vscode.Uri, action: string): Promise<Picked<{ context?: string; kubeconfig?: KubeContexts }>> {
    const settings = readSettings(uri);
    if (settings.clusterContext !== undefined) return { value: { context: settings.clusterContext } };
    const kubeconfig = await readContexts({ path: settings.kubectlPath, env: process.env, namedBy: KUBECTL_NAMED_BY });
    if (!kubeconfig.ok) return { value: {} };
    const picked = await pickClusterContext(kubeconfig.value, settings.clusterNamespace, action);
    return picked && { value: { kubeconfig: kubeconfig.value, ...(picked.value !== undefined ? { context: picked.value } : {}) } };
  }

  /** `stopProbing([row | uri | {uri} | {sessionId}])` → how many sessions stopped. */
  async stopProbing(target: CommandTarget): Promise<number> {
    const named = sessionOf(target, this.deps.sessions);
    const session = named ?? (target.uri || target.sessionId ? undefined : await pickSession(this.deps.sessions.all, 'Stop Probing'));
    if (!session) return 0;
    session.dispose();
    return 1;
  }

  /**
   * `runProbeOnce(row | (uri, pod, container, probe) | {uri, pod, container, probe})` → the
   * `ProbeOnceResult`; missing parts are picked from the manifest's probes.
   */
  async runProbeOnce(target: CommandTarget): Promise<ProbeOnceResult | undefined> {
    const refusal = probingRefusal(vscode.workspace.isTrusted);
    if (refusal) return this.fail(refusal, { trust: true });
    const uri = target.uri ?? activeManifest() ?? (await this.manifestFromWorkspace('Run Probe Once'));
    if (!uri) return undefined;
    let choice = target.pods?.length === 1 && target.container && target.probe ? { pod: target.pods[0] as string, container: target.container, probe: target.probe } : undefined;
    if (!choice) {
      const manifest = await this.deps.launcher.manifest(uri, target.pods);
      if (!manifest.ok) return this.fail(manifest.reason);
      const pods = manifest.value.pods;
      choice = await pickProbe(target.container ? pods.filter((p) => p.spec.containers.some((c) => c.name === target.container)) : pods);
      if (!choice) return undefined;
    }
    const result = await this.deps.launcher.runOnce({ uri, ...choice, trusted: vscode.workspace.isTrusted });
    if (!result.ok) return this.fail(result.reason, result.remedy);
    const { outcome, durationMs, message, refused } = result.value;
    const where = `${choice.pod}/${choice.container} ${choice.probe}`;
    if (outcome.result === 'success' && outcome.error === undefined) inform(`${where}: success in ${Math.round(durationMs)} ms${outcome.output ? ` — ${firstLine(outcome.output)}` : ''}`);
    else if (refused) void notify('warning', `${where}: ${message} — is your app listening on another port? Map container port ${refused.containerPort} to it`, [{ title: MAP_PORT, run: () => mapPort(uri, refused.containerPort, this.deps.log) }]);
    else void notify('warning', `${where}: ${message}`);
    return result.value;
  }

  /** `simulate([uri | {uri, pod | pods, scenario, createScenario, speed, seed}])` → the session. */
  async simulate(target: CommandTarget): Promise<ProbingSession | undefined> {
    const uri = target.uri ?? activeManifest() ?? (await this.manifestFromWorkspace('Simulate'));
    if (!uri) return undefined;
    // Read once: the pods to pick from, the containers of a new scenario, and what the simulation starts from.
    const manifest = await this.deps.launcher.manifest(uri, target.pods);
    if (!manifest.ok) return this.fail(manifest.reason);
    const pods = target.pods ? { value: target.pods } : await pickPods(manifest.value.pods, 'Simulate');
    if (!pods) return undefined;
    let scenario = target.scenario;
    if (!scenario) {
      const picked = target.createScenario ? { value: 'create' as const } : await pickScenario(uri, await scenariosBeside(uri), scenarioFileName(baseName(uri)));
      if (!picked) return undefined;
      if (picked.value === 'create') {
        const containers = manifest.value.pods.flatMap((p) => p.spec.containers.filter((c) => c.probes.length > 0).map((c) => c.name));
        scenario = await createScenario(uri, containers);
        await vscode.window.showTextDocument(scenario, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
        inform(`created ${baseName(scenario)}: edit it and save to play it again.`);
      } else scenario = picked.value;
    }
    const speed = target.speed ?? (await pickSpeed());
    if (speed === undefined) return undefined;
    const request = { uri, ...(pods.value ? { pods: pods.value } : {}), scenario, speed, ...(target.seed !== undefined ? { seed: target.seed } : {}) };
    const started = await this.deps.launcher.startSimulated(request, manifest.value);
    if (!started.ok) return this.fail(started.reason, started.remedy);
    return started.value;
  }

  /**
   * `restartContainer(row | {uri | sessionId, pod, container})` → what the kubelet does
   * (`RestartOutcome`); without a container, one of a simulation's is picked.
   */
  async restartContainer(target: CommandTarget): Promise<RestartOutcome | 'unknown-pod' | undefined> {
    const named = sessionOf(target, this.deps.sessions);
    const session = named ?? (target.uri || target.sessionId ? undefined : await pickSession(this.deps.sessions.all.filter((s) => s.kind === 'simulated'), 'Restart Container'));
    if (!session) return this.fail('Restart Container needs a running simulation: start one with Probe Lens: Simulate…');
    if (session.kind !== 'simulated') return this.fail(`Restart Container works in simulations: a ${session.kind} session only observes ${session.kind === 'cluster' ? 'the pod' : 'your process'} and never kills it, so restart it yourself or simulate the manifest (Probe Lens: Simulate…)`);
    const chosen = target.pods?.[0] && target.container ? { pod: target.pods[0], container: target.container } : await pickContainer(session, 'Restart Container');
    if (!chosen) return undefined;
    const { pod, container } = chosen;
    const outcome = session.restartContainer(pod, container);
    const where = `${pod}/${container}`;
    const said: Record<typeof outcome, string> = {
      restarting: `${where} was killed (exit code 137): the kubelet restarts it under CrashLoopBackOff.`,
      stopped: `${where} was killed (exit code 137): its restart policy keeps it down.`,
      'not-running': `${where} is not running (waiting out its back-off, or terminated): nothing to kill.`,
      'unknown-container': `the simulation has no container ${where}.`,
      'unknown-pod': `the simulation has no pod ${pod}.`,
    };
    this.deps.log.info(`[${session.label}] restart container at t=${session.elapsedSeconds.toFixed(1)}s: ${said[outcome]}`);
    if (outcome === 'restarting' || outcome === 'stopped') inform(said[outcome]);
    else void notify('warning', said[outcome]);
    return outcome;
  }

  /**
   * `openTimeline(row | uri | {uri, pod, container, probe})`: the session's timeline panel, opened
   * beside the editor (or shown, if open), with the named pod, container or probe's lanes
   * highlighted. Resolves with the panel.
   */
  async openTimeline(target: CommandTarget): Promise<TimelinePanel | undefined> {
    // A row of the ended session (kept in the Probes view to be reviewed) opens its timeline too.
    const ended = this.deps.sessions.ended;
    const reviewed = ended && (target.node?.session === ended || target.sessionId === ended.id) ? ended : undefined;
    const session = reviewed ?? sessionOf(target, this.deps.sessions) ?? (target.uri ? undefined : await pickSession(this.deps.sessions.all, 'Open Timeline'));
    if (!session) return this.fail('the timeline shows a running session: start probing or a simulation first (or open a recording: Probe Lens: Open Timeline from File…)');
    const pod = target.pods?.[0];
    const lanes = pod === undefined ? [] : lanesOf(session.snapshot, pod, target.container, target.container !== undefined ? target.probe : undefined);
    return this.deps.timelines.openSession(session, lanes);
  }

  /** `forgetExecConsent([uri | {uri}])` → how many manifests' answers were forgotten (all without a URI). */
  async forgetExecConsent(target: CommandTarget): Promise<number> {
    const count = await this.deps.consent.forget(target.uri);
    inform(count === 0 ? 'no exec probe consent was remembered.' : `forgot the exec probe consent of ${count} manifest${count === 1 ? '' : 's'}: exec probes will ask again.`);
    return count;
  }

  /** A failure, as a notification with the buttons its remedy offers; resolves the command with `undefined`. */
  private fail(reason: string, remedy?: Remedy): undefined {
    void notify('error', reason, remedyActions(remedy, this.deps.log));
    return undefined;
  }

  /**
   * With no manifest named or open: the workspace's manifests to choose from. `undefined` when
   * the user dismissed the picker, or there is none (said so).
   */
  private async manifestFromWorkspace(action: string): Promise<vscode.Uri | undefined> {
    const picked = await pickManifest(action);
    if (picked === 'none') return this.fail(`${action} needs a Kubernetes manifest, and no YAML file in this workspace holds a pod spec: open or create one (a Pod, Deployment, Job … with containers)`);
    if (!picked) return undefined;
    await vscode.window.showTextDocument(picked.value, { preview: false });
    return picked.value;
  }

  /** The pods named, or picked when the manifest has several; `undefined`: the user dismissed the picker. */
  private async choosePods(uri: vscode.Uri, target: CommandTarget, action: string): Promise<{ value: readonly string[] | undefined } | undefined> {
    if (target.pods) return { value: target.pods };
    const manifest = await this.deps.launcher.manifest(uri);
    if (!manifest.ok) return { value: undefined }; // the start reports why
    return pickPods(manifest.value.pods, action);
  }
}

function inform(message: string): void {
  void notify('info', message);
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 120);
}
