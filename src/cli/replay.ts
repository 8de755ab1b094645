import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { buildHistory } from '../core/history/history';
import { replayRecording } from '../core/replay/replay';
import { replayJson, replayTable } from '../core/replay/replayReport';
import type { CliIo } from './io';
import { loadRunnableManifest } from './manifestInput';
import { readRecording, recordingArgument } from './recordingFile';
import { minorVersionOption, UsageError } from './usage';

/**
 * `probe-lens replay RECORDING.jsonl --manifest FILE [--format text|json]`: the app the recording
 * saw, played against another configuration on a virtual clock for as long as the recording, and
 * compared with what happened — restarts, time to Ready, time not Ready, kills.
 */
export function runReplay(argv: readonly string[], io: CliIo): number {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      manifest: { type: 'string' },
      format: { type: 'string', default: 'text' },
      'kubernetes-version': { type: 'string' },
    },
  });
  const file = recordingArgument('replay', positionals);
  if (values.manifest === undefined) throw new UsageError('replay needs --manifest FILE: the configuration to replay the recording against');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format must be text or json, not "${values.format}"`);
  if (file === '-' && values.manifest === '-') throw new UsageError('the recording and --manifest cannot both be standard input');
  const minorVersion = minorVersionOption(values['kubernetes-version']);
  const { header, events } = readRecording(file, io);
  const manifest = loadRunnableManifest(values.manifest, minorVersion, io);
  const result = replayRecording({ header, events, manifest, history: buildHistory(header, events) });
  if (values.format === 'json') {
    io.stdout(`${JSON.stringify(replayJson(result), null, 2)}\n`);
    return 0;
  }
  const title = `${basename(file)} replayed against ${basename(values.manifest)} (${Math.round(result.durationSeconds)} s, before → after)`;
  io.stdout(replayTable(result, title));
  return 0;
}
