import type { KillCounts } from './containerOutcomes';
import type { BeforeAfter, ContainerComparison, ReplayResult } from './replay';
import { roundSeconds } from '../text/durations';
import { reportDuration } from '../text/durations';

/** `probe-lens replay --format json` (docs/design.md §3: one schema version, no prose). */
export interface ReplayJson {
  readonly schemaVersion: 1;
  readonly durationSeconds: number;
  readonly containers: readonly ContainerComparison[];
  readonly notes: readonly string[];
}

export function replayJson(result: ReplayResult): ReplayJson {
  return { schemaVersion: 1, durationSeconds: roundSeconds(result.durationSeconds), containers: result.containers, notes: result.notes };
}

const ROWS: readonly { readonly label: string; readonly text: (c: ContainerComparison) => BeforeAfter<string> }[] = [
  { label: 'restarts', text: (c) => both(c.restarts, String) },
  { label: 'time to Ready', text: (c) => both(c.timeToReady, (s) => (s === null ? 'never' : reportDuration(s))) },
  { label: 'time not Ready', text: (c) => both(c.timeNotReady, (s) => (s === null ? '—' : reportDuration(s))) },
  { label: 'kills', text: (c) => both(c.kills, killsText) },
];

/**
 * The comparison for people: per pod and container, each figure as `before → after`, then the
 * notes. The CLI prints it and the editor's *What if…* shows it, so both read the same.
 */
export function replayTable(result: ReplayResult, title: string): string {
  const lines = [title, ''];
  if (result.containers.length === 0) lines.push('No container of the recording is in the manifest: nothing to compare.', '');
  const labelWidth = Math.max(...ROWS.map((r) => r.label.length)) + 2;
  for (const container of result.containers) {
    const as = container.replayedAs !== undefined ? ` (replayed as ${container.replayedAs}/${container.container})` : '';
    lines.push(`${container.pod}/${container.container}${as}`);
    const texts = ROWS.map((row) => ({ label: row.label, ...row.text(container) }));
    const beforeWidth = Math.max(...texts.map((t) => t.before.length));
    for (const { label, before, after } of texts) {
      lines.push(`  ${label.padEnd(labelWidth)}${before.padEnd(beforeWidth)} → ${after}`);
    }
    lines.push('');
  }
  if (result.notes.length > 0) {
    lines.push('Notes:');
    for (const note of result.notes) lines.push(`  - ${note}`);
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function both<T>(pair: BeforeAfter<T>, text: (value: T) => string): BeforeAfter<string> {
  return { before: text(pair.before), after: text(pair.after) };
}

/** `liveness 3, startup 1`, or `none`. */
export function killsText(kills: KillCounts): string {
  const parts = Object.entries(kills)
    .filter(([, n]) => n > 0)
    .map(([probe, n]) => `${probe} ${n}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

