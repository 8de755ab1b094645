import { parseArgs } from 'node:util';
import type { Manifest } from '../core/manifest';
import { matchScenario } from '../core/scenario/match';
import { parseScenario } from '../core/scenario/parse';
import { DEFAULT_SCENARIO, type Scenario } from '../core/scenario/scenario';
import { type Simulation, startSimulation } from '../core/simulate';
import { jsonlOutput, textOutput } from './format/session';
import { type CliIo, readInput } from './io';
import { loadRunnableManifest } from './manifestInput';
import { minorVersionOption, parseDuration, UsageError } from './usage';

/**
 * Virtual time played between two looks at Ctrl-C. A simulation runs synchronously, and a signal
 * is only heard between tasks: ten virtual minutes take a few milliseconds.
 */
const STEP_SECONDS = 600;

/**
 * `probe-lens simulate FILE [--scenario F] [--for 10m] [--seed N] [--format text|jsonl]`. Ctrl-C
 * ends it early as it ends `run`: with what was played so far and the summary, exit 0.
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
  if (values.format !== 'text' && values.format !== 'jsonl') throw new UsageError(`--format must be text or jsonl, not "${values.format}"`);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be a whole number, not "${values.seed}"`);
  const durationSeconds = parseDuration(values.for as string, '--for');
  const minorVersion = minorVersionOption(values['kubernetes-version']);
  const file = positionals[0] as string;
  const manifest = loadRunnableManifest(file, minorVersion, io);
  const scenario = values.scenario === undefined ? DEFAULT_SCENARIO : readScenario(values.scenario, manifest, io);

  const sink = { write: io.stdout, color: io.color, live: false };
  const output = values.format === 'jsonl' ? jsonlOutput(sink, { mode: 'simulate', file, seed, durationSeconds }) : textOutput(sink);
  const simulation = startSimulation(manifest, { scenario, seed, emit: output.emit });
  try {
    await playUntilInterrupted(simulation, durationSeconds, io);
  } finally {
    simulation.dispose();
  }
  output.finish();
  return 0;
}

/** Plays to `durationSeconds` in steps, stopping after the step in which Ctrl-C (or a gone reader) came. */
async function playUntilInterrupted(simulation: Simulation, durationSeconds: number, io: CliIo): Promise<void> {
  let interrupted = false;
  const release = io.onInterrupt(() => (interrupted = true));
  try {
    let played = 0;
    do {
      played = Math.min(durationSeconds, played + STEP_SECONDS);
      simulation.advanceTo(played);
      await new Promise((resolve) => setImmediate(resolve));
    } while (played < durationSeconds && !interrupted);
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
