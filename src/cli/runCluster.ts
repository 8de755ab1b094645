import { type ClusterNotice, ClusterProbing } from '../core/cluster/clusterProbing';
import { namespacesText, noticeText, proxyStateTeller } from '../core/cluster/noticeText';
import { connectToCluster } from '../core/cluster/connect';
import { RealClock } from '../core/base/clock';
import { desiredPods } from '../core/engine/manager';
import type { KubectlConfig } from '../core/kubeclient/kubectl';
import type { PageAssets } from './format/html';
import type { CliIo } from './io';
import { loadRunnableManifest } from './manifestInput';
import { runSession, runStart, sessionOutput } from './runSession';
import { UsageError } from './usage';

export interface ClusterRun {
  readonly file: string;
  readonly format: string;
  readonly page: PageAssets | undefined;
  readonly durationMs: number | undefined;
  /** `--kubernetes-version`: for the manifest's rules, and the User-Agent when given. */
  readonly minorVersion: number;
  readonly minorVersionGiven: boolean;
  readonly context: string | undefined;
  readonly namespace: string | undefined;
  readonly allPods: boolean;
  readonly kubectl: string;
  readonly allowExec: boolean;
}

/**
 * `run FILE --target cluster`: the manifest's pods are found in the cluster and watched live
 * (`ClusterProbing`), through one `kubectl proxy` for the context; their probes run through the
 * API server. The pods are only observed: where our kubelet would restart a container, the
 * output predicts it and then says whether the cluster did.
 */
export async function runCluster(run: ClusterRun, io: CliIo): Promise<number> {
  const manifest = loadRunnableManifest(run.file, run.minorVersion, io);
  const kubectl: KubectlConfig = { path: run.kubectl, env: process.env, namedBy: 'the --kubectl option' };
  const clock = new RealClock();
  // Ctrl-C while connecting still stops kubectl (it runs in its own process group).
  let interrupted = false;
  const aborting: { dispose(): void }[] = [];
  const releaseEarly = io.onInterrupt(() => {
    interrupted = true;
    for (const part of aborting) part.dispose();
  });
  const onProxyState = proxyStateTeller((text) => io.stderr(`probe-lens: ${text}\n`));
  const connected = await connectToCluster({ kubectl, context: run.context, namespace: run.namespace, allowExec: run.allowExec, clock, onProxyState });
  if (!connected.ok) {
    releaseEarly();
    // kubectl's own words first, when they say more than the sentence (a terminal shows them whole).
    const said = connected.failure.detail.trim();
    if (said && said !== connected.failure.error.detail && !connected.failure.error.sentence.includes(said)) io.stderr(`${said}\n`);
    throw new UsageError(connected.failure.error.sentence);
  }
  const connection = connected.value;
  aborting.push(connection);
  const minorVersion = run.minorVersionGiven ? run.minorVersion : connection.version.minor;
  const pods = desiredPods(manifest);
  const looked = namespacesText(pods, connection.namespace, run.namespace ? '--namespace' : "the context's");
  io.stderr(`probe-lens: context ${connection.context}, Kubernetes ${connection.version.gitVersion}, User-Agent kube-probe/1.${minorVersion}; pods looked for in ${looked}\n`);

  const start = runStart(clock);
  const { output, text, live } = sessionOutput(
    io,
    run.format,
    { mode: 'run', target: 'cluster', file: run.file, context: connection.context, namespace: connection.namespace, startedAt: start.startedAt },
    { page: run.page, clock, start, file: run.file },
  );
  // Until the first listing is done, what goes wrong is held back: if nothing can be probed it
  // is the one reason the run ends (a 403 is not a watch "retrying" while the CLI exits).
  const firstListing = new FirstListing((notice) => io.stderr(`probe-lens: ${noticeText(notice)}\n`));
  // A stream the cluster refuses for good ends the run (exit 1); one refused before the run is
  // under way ends it as soon as it is.
  const failure = new HeldFailure();
  const probing = new ClusterProbing({
    api: connection.api,
    clock,
    epoch: start.epoch,
    epochWall: start.startedAtMs,
    emit: output.emit,
    pods,
    namespace: connection.namespace,
    allPods: run.allPods,
    allowExec: run.allowExec,
    minorVersion,
    onNotice: (notice) => (notice.kind === 'forbidden' ? failure.fail(notice.sentence) : firstListing.notice(notice)),
  });
  aborting.push(probing);
  await probing.whenListed();
  releaseEarly();
  if (interrupted) {
    firstListing.done();
    output.finish();
    return 0;
  }
  if (probing.probedPods === 0) {
    probing.dispose();
    connection.dispose();
    // No session ran: nothing on stdout, as for every other reason the run cannot start.
    throw new UsageError(firstListing.whyNothing(probing.following));
  }
  firstListing.done();
  const elapsed = clock.now() - start.epoch;
  return runSession({ running: [probing, connection], output, text, live, onFailure: (fail) => failure.hand(fail) }, run.durationMs === undefined ? undefined : Math.max(0, run.durationMs - elapsed), io);
}

/** Why the run cannot go on, held until the session can be told (the first reason is the one said). */
class HeldFailure {
  private why: string | undefined;
  private failSession: ((why: string) => void) | undefined;

  fail(why: string): void {
    if (this.failSession) this.failSession(why);
    else this.why ??= why;
  }

  hand(fail: (why: string) => void): void {
    this.failSession = fail;
    if (this.why !== undefined) fail(this.why);
  }
}

/**
 * The notices of the first listing, held until it is done: said as they came once probing
 * starts, or made the one sentence why it cannot (the API's refusal, else where no pod was found).
 * A watch failing because our own kubectl proxy is down is not said: the proxy's stop and
 * restart are, and its recovery is not said either.
 */
class FirstListing {
  private held: ClusterNotice[] | undefined = [];
  private failureSaid = false;

  constructor(private readonly say: (notice: ClusterNotice) => void) {}

  notice(notice: ClusterNotice): void {
    if (this.held) this.held.push(notice);
    else this.tell(notice);
  }

  private tell(notice: ClusterNotice): void {
    if (notice.kind === 'watch-failed' && notice.proxyDown) return;
    if (notice.kind === 'watch-recovered' && !this.failureSaid) return;
    if (notice.kind === 'watch-failed' || notice.kind === 'watch-recovered') this.failureSaid = notice.kind === 'watch-failed';
    this.say(notice);
  }

  /** Probing has started: what was held is said, and what comes next as it comes. */
  done(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const notice of held) this.tell(notice);
  }

  /** Nothing is probed: why, in one sentence. */
  whyNothing(following: number): string {
    const held = this.held ?? [];
    this.held = undefined;
    const failed = held.find((n): n is Extract<ClusterNotice, { kind: 'watch-failed' }> => n.kind === 'watch-failed');
    if (failed) return failed.error.sentence;
    const reasons = held.flatMap((n) => (n.kind === 'no-pod' ? [n.why] : []));
    if (reasons.length === 0) return 'no pod of this manifest can be probed in the cluster';
    const remedy = following === 0 ? '' : reasons.every((r) => r.startsWith('no Running pod')) ? ': wait until one runs, then run again' : ': apply the manifest to the cluster first, or check --context and --namespace';
    return `${reasons.join('; ')}${remedy}`;
  }
}
