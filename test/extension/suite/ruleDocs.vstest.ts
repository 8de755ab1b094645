/**
 * A rule's documentation from its diagnostic (issue 10 §6): a diagnostic's code links to its
 * rule's own page, which opens rendered — one webview panel titled after the rule, reused for the
 * next rule. What the page shows is checked here on its HTML, and as a user sees it in Playwright
 * (test/e2e/ruleDocsUi.mjs). Fixture: web-deployment.yaml (P06, L04, P12, L10, L19, L21).
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { RULE_DOCS, rulePage } from '../../../src/core/rules/docs';
import { RULE_INFO } from '../../../src/core/rules/registry';
import { RULE_DOC_VIEW_TYPE, ruleDocHtml, ruleDocTarget } from '../../../src/extension/commands/ruleDocs';
import { test, waitFor } from '../harness';
import { activateProbeLens, openFixture, probeLensDiagnostics, ruleId } from '../workbench';
import { COMMANDS } from '../../../src/extension/base/commandIds';

/** The tabs showing rule pages (extension webviews' view types carry a prefix of VS Code's own). */
function ruleDocTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(RULE_DOC_VIEW_TYPE));
}

function tabLabels(): string {
  return JSON.stringify(ruleDocTabs().map((tab) => tab.label));
}

/**
 * Opens a link the way the Problems panel and the hover do (`openerService.open(target,
 * { allowCommands: true })`): a `command:` URI runs its command with the JSON arguments in its query.
 */
async function openLink(target: vscode.Uri): Promise<void> {
  assert.equal(target.scheme, 'command', `${target.toString()} is a command link`);
  const args: unknown = JSON.parse(target.query);
  assert.ok(Array.isArray(args), `${target.toString()}: its arguments are a JSON list`);
  await vscode.commands.executeCommand(target.path, ...args);
}

async function closeRuleDocs(): Promise<void> {
  await vscode.window.tabGroups.close(ruleDocTabs());
}

test('a diagnostic\'s code links to its rule\'s page: the P06 link opens one panel titled "P06 · Port name is not valid"', async () => {
  await activateProbeLens();
  await closeRuleDocs();
  const document = await openFixture('web-deployment.yaml');
  const diagnostics = await waitFor(() => {
    const found = probeLensDiagnostics(document.uri);
    return found.length > 0 && found;
  }, 10_000, 'probe-lens diagnostics on web-deployment.yaml');
  for (const diagnostic of diagnostics) {
    const code = diagnostic.code;
    assert.ok(typeof code === 'object', `${ruleId(diagnostic)}: its code has a target`);
    assert.equal(code.target.toString(), ruleDocTarget(String(code.value)).toString(), `${ruleId(diagnostic)}: its code links to its own page`);
  }
  const p06 = diagnostics.find((d) => ruleId(d) === 'P06');
  assert.ok(p06 && typeof p06.code === 'object');
  await openLink(p06.code.target);
  await waitFor(() => ruleDocTabs().some((tab) => tab.label === 'P06 · Port name is not valid' && tab.isActive), 10_000, () => `the P06 page to be the active tab; rule pages: ${tabLabels()}`);
  assert.equal(ruleDocTabs().length, 1);
});

test('opening another rule replaces the page in the same panel instead of adding a tab; ids are case-insensitive', async () => {
  await vscode.commands.executeCommand(COMMANDS.showRuleDoc, 'P06');
  await vscode.commands.executeCommand(COMMANDS.showRuleDoc, 'l04');
  await waitFor(() => ruleDocTabs().some((tab) => tab.label === 'L04 · Quoted port number'), 10_000, () => `the L04 page; rule pages: ${tabLabels()}`);
  assert.equal(ruleDocTabs().length, 1, `one panel: ${tabLabels()}`);
  // An id no rule has opens nothing and leaves the page as it was.
  await vscode.commands.executeCommand(COMMANDS.showRuleDoc, 'Z99');
  assert.deepEqual(ruleDocTabs().map((tab) => tab.label), ['L04 · Quoted port number']);
  await closeRuleDocs();
});

test('ruleDocTarget: a command link to probeLens.showRuleDoc with the rule id, for every rule', async () => {
  const commands = await vscode.commands.getCommands(true);
  assert.ok(commands.includes(COMMANDS.showRuleDoc), `${COMMANDS.showRuleDoc} is registered`);
  assert.equal(ruleDocTarget('P06').toString(true), 'command:probeLens.showRuleDoc?["P06"]');
  for (const id of RULE_INFO.keys()) assert.deepEqual(JSON.parse(ruleDocTarget(id).query), [id]);
});

test('a rule page: the rule\'s sections and both examples, its anchor, links to other rules and the setting, no script, nothing loaded', () => {
  const info = RULE_INFO.get('L04');
  const doc = RULE_DOCS.get('L04');
  assert.ok(info && doc);
  const html = ruleDocHtml(rulePage(info, doc), 'NONCE');
  assert.match(html, /<main data-rule="L04">/);
  assert.match(html, /<h1 id="l04"><span class="id">L04<\/span> Quoted port number<\/h1>/);
  for (const heading of ['What it means', 'Why it matters', 'Triggers it', 'Does not trigger it', 'Turn it off']) assert.ok(html.includes(`<h2>${heading}</h2>`), heading);
  assert.match(html, /<pre class="reported"><code>apiVersion: v1\n[^<]*port: &#34;8080&#34;<\/code><\/pre>/);
  assert.match(html, /<pre class="not-reported"><code>apiVersion: v1\n[^<]*port: 8080<\/code><\/pre>/);
  // P06, named in the text, links to its own page; the setting opens in the Settings editor.
  assert.ok(html.includes(`<a href="command:${COMMANDS.showRuleDoc}?%5B%22P06%22%5D">P06</a>`));
  assert.ok(html.includes('command:workbench.action.openSettings?%5B%22probeLens.disabledRules%22%5D'));
  assert.ok(html.includes('content="default-src &#39;none&#39;; style-src &#39;nonce-NONCE&#39;"'), 'a CSP that allows only the page\'s own styles');
  assert.doesNotMatch(html, /<script|\son\w+=|style="|src=|validation-rules|kubelet-probes|§/);
});
