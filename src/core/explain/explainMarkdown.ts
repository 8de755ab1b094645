import { escapeMarkdown } from '../text/markdown';
import type { Explanation, ExplainedState } from './explanation';

/**
 * An explanation as the editor shows it (the container lens's hover, the Probes view's tooltip):
 * the sentence, then each cause in a line. Markdown, escaped, with the sentences' `code` kept.
 */
export function explanationMarkdown(explanation: Explanation, heading: string): string {
  const causes = explanation.causes.map((cause) => `- ${markdownText(cause.text)} *(${cause.reason}, ${cause.evidence.length} line${cause.evidence.length === 1 ? '' : 's'})*`);
  return [heading, '', markdownText(explanation.sentence), '', ...causes].join('\n');
}

/** `**Why \`web\` is Not Ready**`. */
export function whyHeading(explanation: Explanation): string {
  return `**Why \`${explanation.container.replace(/`/g, "'")}\` is ${STATE_WORDS[explanation.state]}**`;
}

const STATE_WORDS: Readonly<Record<ExplainedState, string>> = {
  ready: 'Ready',
  'not-ready': 'not Ready',
  'not-started': 'not started',
  'back-off': 'in CrashLoopBackOff',
  restarting: 'restarting',
  stopping: 'stopping',
  terminated: 'terminated',
  completed: 'completed',
  initializing: 'waiting for init containers',
  waiting: 'waiting',
  'not-created': 'not created yet',
};

/** Escaped, but a `code` span stays code. */
function markdownText(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part, i) => (i % 2 === 1 ? part : escapeMarkdown(part)))
    .join('');
}
