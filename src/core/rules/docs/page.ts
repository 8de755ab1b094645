import { RULE_INFO, type RuleInfo } from '../registry';
import type { ExampleSettings, RuleDoc, RuleExample } from './types';

/**
 * One rule's documentation as blocks of text, in the order a reader wants them. docs/rules.md
 * and the editor's rule page render the same page, each in its own markup.
 */
export interface RulePage {
  readonly id: string;
  /** A few words: `Port name is not valid`. */
  readonly name: string;
  /** The registry's one-line title. */
  readonly title: string;
  /** `error`, or `error` with the other severity the rule reports and when. */
  readonly severity: { readonly main: RuleInfo['severity']; readonly also?: { readonly severity: RuleInfo['severity']; readonly when: string } };
  readonly category: RuleInfo['category'];
  readonly sections: readonly Section[];
}

export interface Section {
  /** `What it means`, `Why it matters`, `Triggers it`, `Does not trigger it`, `Turn it off`. */
  readonly heading: string;
  readonly blocks: readonly Block[];
}

/** Prose: a paragraph, or a list whose items are each inline Markdown (see `inlineSpans`). */
export type TextBlock = { readonly type: 'paragraph'; readonly text: string } | { readonly type: 'list'; readonly items: readonly string[] };

/** Prose, or an example's manifest with whether Probe Lens reports the rule for it. */
export type Block = TextBlock | { readonly type: 'yaml'; readonly text: string; readonly reported: boolean };

/** The rule categories, as headings. */
export const CATEGORY_TITLES: Readonly<Record<RuleInfo['category'], string>> = {
  yaml: 'YAML',
  api: 'API server (rejected by `kubectl apply`)',
  runtime: 'Run time (accepted, but the kubelet will not do what you expect)',
  timing: 'Timing',
};

export interface InlineSpan {
  readonly kind: 'text' | 'code' | 'strong' | 'rule';
  readonly text: string;
}

export function rulePage(info: RuleInfo, doc: RuleDoc): RulePage {
  return {
    id: info.id,
    name: doc.name,
    title: info.title,
    severity: { main: info.severity, ...(info.alsoReports ? { also: info.alsoReports } : {}) },
    category: info.category,
    sections: [
      { heading: 'What it means', blocks: blocksOf(doc.means) },
      { heading: 'Why it matters', blocks: blocksOf(doc.why) },
      { heading: 'Triggers it', blocks: exampleBlocks(doc.bad, true) },
      { heading: 'Does not trigger it', blocks: exampleBlocks(doc.good, false) },
      { heading: 'Turn it off', blocks: turnOffBlocks(info, doc) },
    ],
  };
}

/** Paragraphs separated by blank lines; a paragraph whose every line starts with `- ` is a list. */
export function blocksOf(text: string): TextBlock[] {
  return text
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk !== '')
    .map((chunk): TextBlock => {
      const lines = chunk.split('\n').map((line) => line.trim());
      if (lines.every((line) => line.startsWith('- '))) return { type: 'list', items: lines.map((line) => line.slice(2)) };
      return { type: 'paragraph', text: lines.join(' ') };
    });
}

/**
 * Inline Markdown as spans: `code`, **strong**, and rule ids (`P06`) in plain text, which both
 * renderers turn into links to that rule.
 */
export function inlineSpans(text: string): InlineSpan[] {
  const spans: InlineSpan[] = [];
  const markup = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (let match = markup.exec(text); match !== null; match = markup.exec(text)) {
    spans.push(...withRuleIds(text.slice(last, match.index)));
    spans.push(match[1] !== undefined ? { kind: 'code', text: match[1] } : { kind: 'strong', text: match[2] as string });
    last = match.index + match[0].length;
  }
  spans.push(...withRuleIds(text.slice(last)));
  return spans;
}

function withRuleIds(text: string): InlineSpan[] {
  if (text === '') return [];
  const spans: InlineSpan[] = [];
  let last = 0;
  for (const match of text.matchAll(/\b[YDPL]\d\d\b/g)) {
    if (!RULE_INFO.has(match[0])) continue;
    if (match.index > last) spans.push({ kind: 'text', text: text.slice(last, match.index) });
    spans.push({ kind: 'rule', text: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) spans.push({ kind: 'text', text: text.slice(last) });
  return spans;
}

function exampleBlocks(example: RuleExample, reported: boolean): Block[] {
  const blocks: Block[] = [{ type: 'paragraph', text: example.caption }];
  if (example.settings) blocks.push({ type: 'paragraph', text: settingsNote(example.settings) });
  blocks.push({ type: 'yaml', text: example.yaml, reported });
  if (example.alsoTriggers?.length) blocks.push({ type: 'paragraph', text: `Probe Lens also reports ${example.alsoTriggers.join(' and ')} here: the same mistake seen from another side.` });
  return blocks;
}

/** "Checked with …": the settings an example depends on, as the editor and the command line spell them. */
function settingsNote(settings: ExampleSettings): string {
  const parts: string[] = [];
  if (settings.kubernetesVersion !== undefined) {
    parts.push(`\`probeLens.kubernetesVersion\` set to \`${settings.kubernetesVersion}\` (\`--kubernetes-version ${settings.kubernetesVersion}\` on the command line)`);
  }
  if (settings.expectedStartupSeconds !== undefined) {
    parts.push(`\`probeLens.expectedStartupSeconds\` set to \`${settings.expectedStartupSeconds}\` (\`--expected-startup ${settings.expectedStartupSeconds}s\`)`);
  }
  return `Checked with ${parts.join(' and ')}.`;
}

function turnOffBlocks(info: RuleInfo, doc: RuleDoc): Block[] {
  const blocks: Block[] = [
    {
      type: 'paragraph',
      text: `In VS Code, add \`${info.id}\` to the \`probeLens.disabledRules\` setting (for one project, in its \`.vscode/settings.json\`: \`"probeLens.disabledRules": ["${info.id}"]\`); on the command line, \`probe-lens check --disable ${info.id} FILE…\`.`,
    },
  ];
  if (info.category === 'api' && !doc.onlyWithoutDefaulting) blocks.push({ type: 'paragraph', text: 'Turning it off only hides the finding: the API server still refuses the manifest.' });
  return blocks;
}
