import { parseArgs } from 'node:util';
import { parseScenario } from '../core/scenario/parse';
import { DEFAULT_SCENARIO, type Scenario } from '../core/scenario/scenario';
import { simulate } from '../core/simulate';
import { jsonlOutput, textOutput } from './format/session';
import { type CliIo, readInput } from './io';
import { loadRunnableManifest } from './manifestInput';
import { minorVersionOption, parseDuration, UsageError } from './usage';

/** Re-exported for run.ts, which still imports it from here; new code imports it from './usage'. */

/** `probe-lens simulate FILE [--scenario F] [--for 10m] [--seed N] [--format text|jsonl]`. */
export function runSimulate(argv: readonly string[], io: CliIo): number {
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
  const scenario = values.scenario === undefined ? DEFAULT_SCENARIO : readScenario(values.scenario, io);

  const sink = { write: io.stdout, color: io.color, live: false };
  const output = values.format === 'jsonl' ? jsonlOutput(sink, { mode: 'simulate', file, seed, durationSeconds }) : textOutput(sink);
  simulate(manifest, { scenario, durationSeconds, seed, emit: output.emit });
  output.finish();
  return 0;
}

function readScenario(file: string, io: CliIo): Scenario {
  const parsed = parseScenario(readInput(file, io, 'scenario '));
  if (!parsed.ok) throw new UsageError(`scenario ${file}: ${parsed.error}`);
  return parsed.scenario;
}
