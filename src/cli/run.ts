import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { RealClock } from '../core/engine/clock';
import type { Disposable } from '../core/engine/disposable';
import { desiredPods, Manager } from '../core/engine/manager';
import { KUBELET_UP_MS } from '../core/engine/podRuntime';
import type { KubectlConfig } from '../core/k8s/kubectl';
import { type ClusterPodBinding, ClusterTarget, findClusterPods } from '../core/targets/cluster';
import { isLoopback } from '../core/k8s/hosts';
import { LocalTarget, ObservedProcesses } from '../core/targets/local';
import { tunnelText } from '../core/targets/portForward';
import { htmlOutput, type PageAssets, readPageAssets } from './format/html';
import { jsonlOutput, type SessionOutput, textOutput } from './format/session';
import type { CliIo } from './io';
import { loadRunnableManifest } from './manifestInput';
import { minorVersionOption, parseDuration, UsageError } from './usage';

const REDRAW_MS = 500;

/**
 * `probe-lens run FILE --target local [--port C:L]... [--for 60s]`: the manifest's probes against
 * your app on this machine, with the kubelet's timing and decisions, until `--for` or Ctrl-C.
 * Resolves with the exit code once everything it started is stopped.
 */
export function runRun(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      target: { type: 'string', default: 'local' },
      port: { type: 'string', multiple: true, default: [] },
      for: { type: 'string' },
      format: { type: 'string', default: 'text' },
      host: { type: 'string', default: '127.0.0.1' },
      'allow-host': { type: 'string', multiple: true, default: [] },
      'allow-exec': { type: 'boolean', default: false },
      'kubernetes-version': { type: 'string' },
      namespace: { type: 'string', short: 'n' },
      kubectl: { type: 'string', default: 'kubectl' },
    },
  });
  if (values.target !== 'local' && values.target !== 'cluster') throw new UsageError(`--target must be local or cluster, not "${values.target}"`);
  if (positionals.length !== 1) throw new UsageError('run needs exactly one FILE');
  if (values.format !== 'text' && values.format !== 'jsonl' && values.format !== 'html') throw new UsageError(`--format must be text, jsonl or html, not "${values.format}"`);
  // Before anything runs: a page that cannot be made is bad input, not an empty page at the end.
  const assets = values.format === 'html' ? readPageAssets() : undefined;
  if (assets && !assets.ok) throw new UsageError(assets.message);
  const page = assets?.assets;
  if (values.target === 'cluster') {
    const localOnly = (['port', 'host', 'allow-host'] as const).find((name) => argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`)));
    if (localOnly) throw new UsageError(`--${localOnly} is for --target local: in the cluster, probes reach the pod through kubectl port-forward`);
    return runCluster(
      {
        file: positionals[0] as string,
        format: values.format,
        page,
        durationMs: values.for === undefined ? undefined : parseDuration(values.for, '--for') * 1000,
        minorVersion: minorVersionOption(values['kubernetes-version']),
        namespace: values.namespace,
        kubectl: values.kubectl as string,
        allowExec: values['allow-exec'] as boolean,
      },
      io,
    );
  }
  if (values.namespace !== undefined || argv.some((a) => a === '--kubectl' || a.startsWith('--kubectl='))) throw new UsageError('--namespace and --kubectl are for --target cluster');
  const portMap = new Map((values.port as string[]).map(parsePortMapping));
  const host = values.host as string;
  const allowedHosts = new Set(values['allow-host'] as string[]);
  if (!isLoopback(host) && !allowedHosts.has(host)) throw new UsageError(`--host ${host} is not the loopback: add --allow-host ${host} to probe it`);
  const durationMs = values.for === undefined ? undefined : parseDuration(values.for, '--for') * 1000;
  const minorVersion = minorVersionOption(values['kubernetes-version']);
  const file = positionals[0] as string;
  const manifest = loadRunnableManifest(file, minorVersion, io);

  const clock = new RealClock();
  const start = runStart(clock);
  const { output, text, live } = sessionOutput(io, values.format, { mode: 'run', target: 'local', file, startedAt: start.startedAt }, { page, clock, start, file });
  const target = new LocalTarget({ host, portMap, allowExec: values['allow-exec'] as boolean, allowedHosts, minorVersion, baseEnv: process.env });
  const { epoch } = start;
  const manager = new Manager({ clock, epoch, kubeletStartedAt: epoch - KUBELET_UP_MS, random: Math.random, target, processes: new ObservedProcesses(), emit: output.emit, idScheme: 'local' });
  manager.sync(desiredPods(manifest));

  return runSession({ manager, target, output, text, live }, durationMs, io);
}

/** t = 0 of a run: on the session's clock, and as wall-clock time (the header's `startedAt`). */
interface RunStart {
  readonly epoch: number;
  readonly startedAtMs: number;
  readonly startedAt: string;
}

function runStart(clock: RealClock): RunStart {
  const epoch = clock.now();
  const startedAtMs = Date.now();
  return { epoch, startedAtMs, startedAt: new Date(startedAtMs).toISOString() };
}

interface PageSetup {
  readonly page: PageAssets | undefined;
  readonly clock: RealClock;
  readonly start: RunStart;
  readonly file: string;
}

/**
 * What a session prints with: a live table on a colour terminal, else plain lines, JSON lines, or
 * (`html`) one page written when the session stops, its axis in wall-clock time.
 */
function sessionOutput(io: CliIo, format: string, header: Record<string, unknown>, setup: PageSetup): Pick<Session, 'output' | 'text' | 'live'> {
  const sink = { write: io.stdout, color: io.color, live: io.color && format === 'text' };
  if (setup.page) {
    const { clock, start } = setup;
    const title = `${basename(setup.file)} · ${String(header['target'])} run · ${start.startedAt}`;
    const output = htmlOutput(sink, header, {
      assets: setup.page,
      clock: { kind: 'wall', startedAtMs: start.startedAtMs },
      now: () => (clock.now() - start.epoch) / 1000,
      title,
      note: (note) => io.stderr(`probe-lens: note: ${note}\n`),
    });
    return { output, text: undefined, live: false };
  }
  const text = format === 'text' ? textOutput(sink) : undefined;
  return { output: text ?? jsonlOutput(sink, header), text, live: sink.live };
}

interface Session {
  readonly manager: Manager;
  readonly target: Disposable;
  readonly output: SessionOutput;
  readonly text: ReturnType<typeof textOutput> | undefined;
  readonly live: boolean;
}

/** Runs until `--for` or Ctrl-C, then stops everything it started; resolves with exit code 0. */
function runSession(session: Session, durationMs: number | undefined, io: CliIo): Promise<number> {
  const { manager, target, output, text } = session;
  return new Promise((resolve) => {
    const redraw = text && session.live ? setInterval(() => text.redraw(), REDRAW_MS) : undefined;
    let finished = false;
    const stop = () => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      clearInterval(redraw);
      releaseInterrupt();
      manager.dispose();
      target.dispose();
      output.finish();
      resolve(0);
    };
    const deadline = durationMs === undefined ? undefined : setTimeout(stop, durationMs);
    const releaseInterrupt = io.onInterrupt(stop);
  });
}

interface ClusterRun {
  readonly file: string;
  readonly format: string;
  readonly page: PageAssets | undefined;
  readonly durationMs: number | undefined;
  readonly minorVersion: number;
  readonly namespace: string | undefined;
  readonly kubectl: string;
  readonly allowExec: boolean;
}

/**
 * `run FILE --target cluster`: each pod spec of the manifest is matched to a Running pod (a Pod by
 * name, a workload by its labels), HTTP/TCP/gRPC probes go through a `kubectl port-forward` per
 * pod and exec probes through `kubectl exec`. The pods are only observed: the kills and restarts
 * reported are the kubelet's decisions as Probe Lens makes them, not actions on the cluster.
 */
async function runCluster(run: ClusterRun, io: CliIo): Promise<number> {
  const manifest = loadRunnableManifest(run.file, run.minorVersion, io);
  const kubectl: KubectlConfig = { path: run.kubectl, env: process.env };
  const found = await findClusterPods(kubectl, desiredPods(manifest), run.namespace);
  if (!found.ok) {
    // kubectl's own words first (a terminal shows them whole), then what they mean.
    if (found.kubectl?.stderr.trim()) io.stderr(`${found.kubectl.command}:\n${found.kubectl.stderr.trim()}\n`);
    throw new UsageError(found.reason);
  }
  // The CLI names each pod as the cluster does.
  const bindings: ClusterPodBinding[] = found.value.bindings.map(({ spec, pod }) => ({ identity: { name: pod.name, namespace: pod.namespace, uid: pod.uid }, spec, pod }));
  for (const error of found.value.missing) io.stderr(`probe-lens: note: ${error}; not probed\n`);
  for (const { pod, spec } of bindings) {
    io.stderr(`probe-lens: ${spec.objectKind} ${spec.objectName ?? ''} → pod ${pod.namespace}/${pod.name}${pod.podIP ? ` (${pod.podIP})` : ''}; kills and restarts below are what the kubelet would decide, the pod is not touched\n`);
  }

  const clock = new RealClock();
  const start = runStart(clock);
  const pods = bindings.map((b) => ({ name: b.pod.name, namespace: b.pod.namespace }));
  const { output, text, live } = sessionOutput(io, run.format, { mode: 'run', target: 'cluster', file: run.file, pods, startedAt: start.startedAt }, { page: run.page, clock, start, file: run.file });
  const { epoch } = start;
  const target = new ClusterTarget({
    kubectl,
    pods: bindings,
    allowExec: run.allowExec,
    minorVersion: run.minorVersion,
    clock,
    epoch,
    emit: output.emit,
    onTunnelChange: (pod, change) => io.stderr(`probe-lens: ${tunnelText(pod.name, change)}\n`),
  });
  // Ctrl-C while the tunnels open must still kill them (kubectl runs in its own process group).
  let interrupted = false;
  const releaseEarly = io.onInterrupt(() => {
    interrupted = true;
    target.dispose();
  });
  await target.whenConnected();
  releaseEarly();
  if (interrupted) {
    output.finish();
    return 0;
  }
  const manager = new Manager({ clock, epoch, kubeletStartedAt: epoch - KUBELET_UP_MS, random: Math.random, target, processes: new ObservedProcesses(), emit: output.emit, idScheme: 'cluster' });
  manager.sync(bindings.map((b) => ({ identity: b.identity, spec: b.spec })));
  return runSession({ manager, target, output, text, live }, run.durationMs === undefined ? undefined : Math.max(0, run.durationMs - (clock.now() - epoch)), io);
}

/** `8080:18080`: the container port and the local port it is reachable on. */
function parsePortMapping(text: string): [number, number] {
  const match = /^(\d+):(\d+)$/.exec(text);
  const [container, local] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(container >= 1 && container <= 65535 && local >= 1 && local <= 65535)) throw new UsageError(`--port must be CONTAINER:LOCAL with ports 1–65535, like 8080:18080 (got "${text}")`);
  return [container, local];
}
