import { parseArgs } from 'node:util';
import { extractScenario, type ScenarioNote } from '../core/replay/extractScenario';
import { buildHistory, recordingLength } from '../core/history/history';
import { scenarioYaml } from '../core/scenario/write';
import type { CliIo } from './io';
import { readRecording, recordingArgument } from './recordingFile';

/**
 * `probe-lens scenario RECORDING.jsonl > app.scenario.yaml`: how the app behaved, as a scenario
 * (docs/design.md §3) for `simulate --scenario`. What it cannot express goes to stderr, and into the
 * file as comments.
 */
export function runScenario(argv: readonly string[], io: CliIo): number {
  const { positionals } = parseArgs({ args: [...argv], allowPositionals: true, options: {} });
  const { name, header, events } = readRecording(recordingArgument('scenario', positionals), io);
  const history = buildHistory(header, events);
  const durationSeconds = recordingLength(header, history);
  const { scenario, notes } = extractScenario(history, { durationSeconds });
  const origin = history.kills === 'reported' ? 'since the first start (a local run: its kills were only reported, and the process ran on through them)' : 'since each container started';
  const top = [`Extracted by probe-lens from ${name} (${Math.round(durationSeconds)} s recorded): outcomes by time ${origin}.`, ...notes.filter((n) => n.container === undefined).map((n) => n.message)];
  const byContainer: Record<string, string[]> = {};
  for (const note of notes) if (note.container !== undefined) (byContainer[note.container] ??= []).push(note.message);
  io.stdout(scenarioYaml(scenario, { top, containers: byContainer }));
  for (const note of notes) io.stderr(`probe-lens: note: ${noteText(note)}\n`);
  if (Object.keys(scenario.containers).length === 0) io.stderr('probe-lens: note: no container of the recording had an attempt that reached its app: the scenario is empty\n');
  return 0;
}

function noteText(note: ScenarioNote): string {
  return note.container === undefined ? note.message : `${note.container}: ${note.message}`;
}
