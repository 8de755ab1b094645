import { parseArgs } from 'node:util';
import { RealClock } from '../core/base/clock';
import { desiredPods, Manager, podRuntimes } from '../core/engine/manager';
import { KUBELET_UP_MS } from '../core/engine/podRuntime';
import { isLoopback } from '../core/k8s/hosts';
import { LocalTarget, ObservedProcesses } from '../core/targets/local';
import { readPageAssets } from './format/html';
import type { CliIo } from './io';
import { loadRunnableManifest } from './manifestInput';
import { runCluster } from './runCluster';
import { runSession, runStart, sessionOutput } from './runSession';
import { minorVersionOption, parseDuration, UsageError } from './usage';

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
      context: { type: 'string' },
      'all-pods': { type: 'boolean', default: false },
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
    if (localOnly) throw new UsageError(`--${localOnly} is for --target local: in the cluster, probes reach the pod through the API server's port-forward`);
    return runCluster(
      {
        file: positionals[0] as string,
        format: values.format,
        page,
        durationMs: values.for === undefined ? undefined : parseDuration(values.for, '--for') * 1000,
        minorVersion: minorVersionOption(values['kubernetes-version']),
        minorVersionGiven: values['kubernetes-version'] !== undefined,
        context: values.context,
        namespace: values.namespace,
        allPods: values['all-pods'] as boolean,
        kubectl: values.kubectl as string,
        allowExec: values['allow-exec'] as boolean,
      },
      io,
    );
  }
  const clusterOnly = (['namespace', 'context', 'all-pods', 'kubectl'] as const).find((name) => argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`) || (name === 'namespace' && a === '-n')));
  if (clusterOnly) throw new UsageError(`--${clusterOnly} is for --target cluster`);
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
  const manager = new Manager(podRuntimes({ clock, epoch, kubeletStartedAt: epoch - KUBELET_UP_MS, random: Math.random, target, processes: new ObservedProcesses(), emit: output.emit, idScheme: 'local' }));
  manager.sync(desiredPods(manifest));

  return runSession({ running: [manager, target], output, text, live }, durationMs, io);
}


/** `8080:18080`: the container port and the local port it is reachable on. */
function parsePortMapping(text: string): [number, number] {
  const match = /^(\d+):(\d+)$/.exec(text);
  const [container, local] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(container >= 1 && container <= 65535 && local >= 1 && local <= 65535)) throw new UsageError(`--port must be CONTAINER:LOCAL with ports 1–65535, like 8080:18080 (got "${text}")`);
  return [container, local];
}
