import { parseArgs } from 'node:util';
import { RealClock } from '../core/engine/clock';
import { desiredPods, Manager } from '../core/engine/manager';
import { isLoopback, LocalTarget, ObservedProcesses } from '../core/targets/local';
import { jsonlOutput, textOutput } from './format/session';
import type { CliIo } from './io';
import { loadRunnableManifest } from './manifestInput';
import { minorVersionOption } from './simulate';
import { parseDuration, UsageError } from './usage';

const REDRAW_MS = 500;

/**
 * `probe-lens run FILE --target local [--port C:L]... [--for 60s]`: the manifest's probes against
 * your app on this machine, with the kubelet's timing and decisions, until `--for` or Ctrl-C.
 * Resolves with the exit code once everything it started is stopped.
 */
export function runRun(argv: readonly string[], io: CliIo & { onInterrupt(stop: () => void): () => void }): Promise<number> {
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
    },
  });
  if (values.target === 'cluster') throw new UsageError('--target cluster is not available yet: run against a port-forward with --target local --port C:L');
  if (values.target !== 'local') throw new UsageError(`--target must be local, not "${values.target}"`);
  if (positionals.length !== 1) throw new UsageError('run needs exactly one FILE');
  if (values.format !== 'text' && values.format !== 'jsonl') throw new UsageError(`--format must be text or jsonl, not "${values.format}"`);
  const portMap = new Map((values.port as string[]).map(parsePortMapping));
  const host = values.host as string;
  const allowedHosts = new Set(values['allow-host'] as string[]);
  if (!isLoopback(host) && !allowedHosts.has(host)) throw new UsageError(`--host ${host} is not the loopback: add --allow-host ${host} to probe it`);
  const durationMs = values.for === undefined ? undefined : parseDuration(values.for, '--for') * 1000;
  const minorVersion = minorVersionOption(values['kubernetes-version']);
  const file = positionals[0] as string;
  const manifest = loadRunnableManifest(file, minorVersion, io);

  const sink = { write: io.stdout, color: io.color, live: io.color && values.format === 'text' };
  const text = values.format === 'text' ? textOutput(sink) : undefined;
  const output = text ?? jsonlOutput(sink, { mode: 'run', target: 'local', file });
  const clock = new RealClock();
  const target = new LocalTarget({ host, portMap, allowExec: values['allow-exec'] as boolean, allowedHosts, minorVersion, baseEnv: process.env });
  const epoch = clock.now();
  // The kubelet has been up a while: no start-up jitter (W4) for a session the user just started.
  const manager = new Manager({ clock, epoch, kubeletStartedAt: epoch - 3_600_000, random: Math.random, target, processes: new ObservedProcesses(), emit: output.emit, idScheme: 'local' });
  manager.sync(desiredPods(manifest));

  return new Promise((resolve) => {
    const redraw = text && sink.live ? setInterval(() => text.redraw(), REDRAW_MS) : undefined;
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

/** `8080:18080`: the container port and the local port it is reachable on. */
function parsePortMapping(text: string): [number, number] {
  const match = /^(\d+):(\d+)$/.exec(text);
  const [container, local] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(container >= 1 && container <= 65535 && local >= 1 && local <= 65535)) throw new UsageError(`--port must be CONTAINER:LOCAL with ports 1–65535, like 8080:18080 (got "${text}")`);
  return [container, local];
}
