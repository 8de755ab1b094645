import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { Manifest } from '../core/manifest';
import { matchScenario } from '../core/scenario/match';
import { parseScenario } from '../core/scenario/parse';
import { DEFAULT_SCENARIO, type Scenario } from '../core/scenario/scenario';
import { desiredPods } from '../core/engine/manager';
import { type Simulation, startSimulation } from '../core/targets/simulation';
import { htmlOutput, readPageAssets } from './format/html';
import { jsonlOutput, type SessionOutput, textOutput } from './format/session';
import { type CliIo, readInput } from './io';
import { loadRunnableManifest } from './manifestInput';
import { minorVersionOption, parseDuration, UsageError } from './usage';

/**
 * Virtual time played between two looks at Ctrl-C. A simulation runs synchronously, and a signal
 * is only heard between tasks: ten virtual minutes take a few milliseconds.
 */
const STEP_SECONDS = 600;

/**
 * `probe-lens simulate FILE [--scenario F] [--for 10m] [--seed N] [--format text|jsonl|html]`. Ctrl-C
 * ends it early as it ends `run`: with what was played so far and the summary (or page), exit 0.
 */
export async function runSimulate(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      scenario: { type: 'string' },
      for: { type: 'string', default: '10m' },
      seed: { type: 'string', default: '1' },
      format: { type: 'string', default: 'text' },
      'kubernetes-version': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('simulate needs exactly one FILE');
  if (values.format !== 'text' && values.format !== 'jsonl' && values.format !== 'html') throw new UsageError(`--format must be text, jsonl or html, not "${values.format}"`);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be a whole number, not "${values.seed}"`);
  const durationSeconds = parseDuration(values.for as string, '--for');
  const minorVersion = minorVersionOption(values['kubernetes-version']);
  const file = positionals[0] as string;
  const manifest = loadRunnableManifest(file, minorVersion, io);
  const scenario = values.scenario === undefined ? DEFAULT_SCENARIO : readScenario(values.scenario, manifest, io);

  // Before anything runs: a page that cannot be made is bad input, not an empty page at the end.
  const assets = values.format === 'html' ? readPageAssets() : undefined;
  if (assets && !assets.ok) throw new UsageError(assets.message);

  const sink = { write: io.stdout, color: io.color, live: false };
  const header = { mode: 'simulate', file, seed, durationSeconds };
  let played = 0;
  const title = `${basename(file)} · simulated ${values.for}${values.scenario === undefined ? '' : ` · ${basename(values.scenario)}`}`;
  const output: SessionOutput = assets
    ? htmlOutput(sink, header, { assets: assets.assets, clock: { kind: 'virtual' }, now: () => played, title, note: (text) => io.stderr(`probe-lens: note: ${text}\n`) })
    : values.format === 'jsonl'
      ? jsonlOutput(sink, header)
      : textOutput(sink, 'carried-out');
  const simulation = startSimulation(desiredPods(manifest), { scenario, seed, emit: output.emit });
  try {
    played = await playUntilInterrupted(simulation, durationSeconds, io);
  } finally {
    simulation.dispose();
    // Even when a bug stops the play: what was played is written before the error is said.
    output.finish();
  }
  return 0;
}

/**
 * Plays to `durationSeconds` in steps, stopping after the step in which Ctrl-C (or a gone reader)
 * came; resolves with the virtual seconds played.
 */
async function playUntilInterrupted(simulation: Simulation, durationSeconds: number, io: CliIo): Promise<number> {
  let interrupted = false;
  const release = io.onInterrupt(() => (interrupted = true));
  try {
    let played = 0;
    do {
      played = Math.min(durationSeconds, played + STEP_SECONDS);
      simulation.advanceTo(played);
      await new Promise((resolve) => setImmediate(resolve));
    } while (played < durationSeconds && !interrupted);
    return played;
  } finally {
    release();
  }
}

/** The scenario file, read against the manifest it plays (containers and probes it names must exist). */
function readScenario(file: string, manifest: Manifest, io: CliIo): Scenario {
  const parsed = parseScenario(readInput(file, io, 'scenario '));
  const matched = parsed.ok ? matchScenario(parsed.scenario, manifest.documents.flatMap((d) => d.podSpecs)) : parsed;
  if (!matched.ok) throw new UsageError(`scenario ${file}: ${matched.error}`);
  return matched.scenario;
}
