import * as vscode from 'vscode';
import { type Block, CATEGORY_TITLES, inlineSpans, RULE_DOCS, type RulePage, rulePage } from '../../core/rules/docs';
import { normaliseRuleIds, RULE_INFO } from '../../core/rules/registry';
import { escapeHtml } from '../../core/text/html';
import { notify } from '../sessions/notices';
import { webviewNonce, webviewPageHtml } from '../base/webviewPage';
import { COMMANDS } from '../base/commandIds';

/** Opens a rule's page; its argument is the rule id (`P06`), or none for a list to pick from. */
export const RULE_DOC_VIEW_TYPE = 'probeLens.ruleDoc';

/** The commands a rule page's links may run: other rules, and the setting that turns rules off. */
const PAGE_COMMANDS = [COMMANDS.showRuleDoc, 'workbench.action.openSettings'];

/**
 * What a diagnostic's code links to: a `command:` URI that opens the rule's own page. The
 * Problems panel and the editor's hover open a code's target with command URIs allowed
 * (`openerService.open(target, { allowCommands: true })` in both, run in the window itself, on
 * the desktop as in a browser), whereas a file URI with a fragment (`docs/rules.md#p06`) opens
 * the raw Markdown at its first line, and a `vscode://` URI takes a detour through the desktop
 * app's main process, whose URI handler asks "Allow 'Probe Lens' extension to open this URI?"
 * for a URI it was not told is trusted.
 */
export function ruleDocTarget(ruleId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: 'command', path: COMMANDS.showRuleDoc, query: JSON.stringify([ruleId]) });
}

/** The `probeLens.showRuleDoc` command and the one panel it shows rule pages in. */
export function registerRuleDocs(context: Pick<vscode.ExtensionContext, 'extensionUri'>): vscode.Disposable {
  const panel = new RuleDocPanel(context.extensionUri);
  return vscode.Disposable.from(
    vscode.commands.registerCommand(COMMANDS.showRuleDoc, async (ruleId?: unknown) => {
      const id = typeof ruleId === 'string' ? normaliseRuleIds([ruleId]).known[0] : await pickRule();
      if (typeof ruleId === 'string' && id === undefined) void notify('warning', `Probe Lens has no rule "${ruleId}".`);
      if (id !== undefined) panel.show(id);
    }),
    panel,
  );
}

async function pickRule(): Promise<string | undefined> {
  const items = Array.from(RULE_INFO.values(), (info) => ({ label: info.id, description: RULE_DOCS.get(info.id)?.name ?? '', detail: info.title }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Probe Lens rules', placeHolder: 'Rule id or words from its description', matchOnDescription: true, matchOnDetail: true });
  return picked?.label;
}

/**
 * One webview panel for rule pages, reused: following a link to another rule replaces the page
 * rather than piling up tabs. The page is static HTML — no script — so it needs no state to
 * restore when it is shown again.
 */
class RuleDocPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(private readonly extensionUri: vscode.Uri) {}

  show(ruleId: string): void {
    const info = RULE_INFO.get(ruleId);
    const doc = RULE_DOCS.get(ruleId);
    if (!info || !doc) return;
    const page = rulePage(info, doc);
    const panel = this.panel ?? this.create();
    panel.title = `${page.id} · ${page.name}`;
    panel.webview.html = ruleDocHtml(page, webviewNonce());
    panel.reveal(undefined, false);
  }

  private create(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel(
      RULE_DOC_VIEW_TYPE,
      'Probe Lens rule',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      { enableScripts: false, enableCommandUris: PAGE_COMMANDS, enableFindWidget: true, localResourceRoots: [] },
    );
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.png');
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    this.panel = panel;
    return panel;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

/**
 * A rule's page: no script, styles allowed by their nonce only, nothing loaded from anywhere
 * (design §5), colours from the theme. `data-rule` names the rule for tests that look at the page.
 */
export function ruleDocHtml(page: RulePage, nonce: string): string {
  const severity = `<span class="severity ${page.severity.main}">${page.severity.main}</span>${page.severity.also ? ` <span class="also">(<span class="severity ${page.severity.also.severity}">${page.severity.also.severity}</span> ${escapeHtml(page.severity.also.when)})</span>` : ''}`;
  const sections = page.sections.map((section) => `<section>\n<h2>${escapeHtml(section.heading)}</h2>\n${section.blocks.map(blockHtml).join('\n')}\n</section>`);
  return webviewPageHtml({
    csp: [`style-src 'nonce-${nonce}'`],
    title: `${page.id} — ${page.name}`,
    head: `<style nonce="${escapeHtml(nonce)}">${STYLE}</style>`,
    body: `<main data-rule="${escapeHtml(page.id)}">
<header>
<p class="kicker">Probe Lens rule · ${inlineHtml(CATEGORY_TITLES[page.category])}</p>
<h1 id="${escapeHtml(page.id.toLowerCase())}"><span class="id">${escapeHtml(page.id)}</span> ${escapeHtml(page.name)}</h1>
<p class="summary">${severity} — ${inlineHtml(page.title)}</p>
</header>
${sections.join('\n')}
<p class="settings"><a href="${commandHref('workbench.action.openSettings', 'probeLens.disabledRules')}">Open the probeLens.disabledRules setting</a> · <a href="${commandHref(COMMANDS.showRuleDoc)}">All rules…</a></p>
</main>`,
  });
}

function blockHtml(block: Block): string {
  switch (block.type) {
    case 'paragraph':
      return `<p>${inlineHtml(block.text)}</p>`;
    case 'list':
      return `<ul>\n${block.items.map((item) => `<li>${inlineHtml(item)}</li>`).join('\n')}\n</ul>`;
    case 'yaml':
      return `<pre class="${block.reported ? 'reported' : 'not-reported'}"><code>${escapeHtml(block.text.trimEnd())}</code></pre>`;
  }
}

/** `code`, **strong**, and rule ids as links to their own pages. */
function inlineHtml(text: string): string {
  return inlineSpans(text)
    .map((span) => {
      switch (span.kind) {
        case 'code':
          // A short name or value is kept on one line; an error message may wrap.
          return `<code${span.text.length <= 40 ? ' class="word"' : ''}>${escapeHtml(span.text)}</code>`;
        case 'strong':
          return `<strong>${escapeHtml(span.text)}</strong>`;
        case 'rule':
          return `<a href="${commandHref(COMMANDS.showRuleDoc, span.text)}">${escapeHtml(span.text)}</a>`;
        case 'text':
          return escapeHtml(span.text);
      }
    })
    .join('');
}

function commandHref(command: string, ...args: string[]): string {
  return escapeHtml(`command:${command}${args.length ? `?${encodeURIComponent(JSON.stringify(args))}` : ''}`);
}

/** Theme colours and fonts only (`--vscode-*`), so the page follows light, dark and high-contrast themes. */
const STYLE = `
body { color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); line-height: 1.5; margin: 0; padding: 0 24px 32px; }
main { max-width: 780px; }
header { border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); padding: 20px 0 12px; margin-bottom: 8px; }
.kicker { color: var(--vscode-descriptionForeground); margin: 0 0 4px; font-size: 0.9em; }
h1 { font-size: 1.6em; font-weight: 600; margin: 0 0 8px; }
h1 .id { font-family: var(--vscode-editor-font-family); color: var(--vscode-textLink-foreground); margin-right: 0.3em; }
h2 { font-size: 1.1em; font-weight: 600; margin: 20px 0 6px; }
.summary { margin: 0; }
.severity { font-weight: 600; padding: 0 6px; border-radius: 3px; border: 1px solid currentColor; font-size: 0.9em; }
.severity.error { color: var(--vscode-errorForeground); }
.severity.warning { color: var(--vscode-editorWarning-foreground); }
.severity.info { color: var(--vscode-editorInfo-foreground); }
.also { color: var(--vscode-descriptionForeground); }
p, ul { margin: 6px 0; }
code { font-family: var(--vscode-editor-font-family); font-size: 0.95em; color: var(--vscode-textPreformat-foreground); background: var(--vscode-textPreformat-background, transparent); padding: 0 3px; border-radius: 3px; }
code.word { white-space: nowrap; }
pre { background: var(--vscode-textCodeBlock-background); padding: 8px 12px; border-radius: 4px; overflow-x: auto; margin: 6px 0 14px; border-left: 3px solid var(--vscode-textBlockQuote-border, transparent); }
pre code { color: var(--vscode-editor-foreground); background: none; padding: 0; font-size: var(--vscode-editor-font-size); line-height: 1.45; }
pre.reported { border-left-color: var(--vscode-editorError-foreground); }
pre.not-reported { border-left-color: var(--vscode-testing-iconPassed, var(--vscode-textLink-foreground)); }
a { color: var(--vscode-textLink-foreground); text-decoration: none; }
a:hover { color: var(--vscode-textLink-activeForeground); text-decoration: underline; }
a:focus { outline: 1px solid var(--vscode-focusBorder); }
.settings { margin-top: 24px; color: var(--vscode-descriptionForeground); }
`;
