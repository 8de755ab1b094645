import * as vscode from 'vscode';
import { escapeMarkdown } from '../../core/text/markdown';
import type { ContainerCountdown } from './pauseCountdowns';

/** How the status bar item looks while a debugger holds a probed program. */
export interface PausedStatus {
  readonly text: string;
  readonly tooltip: vscode.MarkdownString;
  /** A warning background once a restart would already have happened. */
  readonly backgroundColor: vscode.ThemeColor | undefined;
}

/**
 * The status bar while held: the most urgent countdown leads (`$(debug-pause) paused 12 s — in
 * the cluster liveness would restart api in 18 s (3 × 10 s)`, `· +1 more` for the others), the
 * tooltip lists them all (in Markdown) and says how the first was reached. `undefined`: nothing
 * is held.
 */
export function pausedStatus(countdowns: readonly ContainerCountdown[]): PausedStatus | undefined {
  const [first, ...others] = countdowns;
  if (!first) return undefined;
  const text = `$(debug-pause) ${first.text}${others.length > 0 ? ` · +${others.length} more` : ''}`;
  const lines = countdowns.map((c) => `- **${escapeMarkdown(c.session.label)}** ${escapeMarkdown(`${c.pod}/${c.container}`)}: ${c.markdown}`);
  const tooltip = new vscode.MarkdownString(
    ['Probe Lens — a debugger holds the program under probe', '', ...lines, '', first.detail, '', 'Attempts that ran while it was held are marked *paused* in the timeline. Turn this off with `probeLens.breakpointGuard.enabled`.'].join('\n'),
  );
  return { text, tooltip, backgroundColor: first.overdue ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined };
}
