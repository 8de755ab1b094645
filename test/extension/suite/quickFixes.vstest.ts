/**
 * Quick fixes inside a real VS Code extension host, on test/e2e/fixtures/workspace/quickfixes/
 * fixable.yaml (a throw-away copy): every fix is asked for the way the light bulb asks
 * (`vscode.executeCodeActionProvider` on the diagnostic's range), applied, and the text it leaves
 * compared exactly; then the document is reverted, never saved.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ProbeLensApi } from '../../../src/extension/extension';
import { ProbeQuickFixes } from '../../../src/extension/editor/quickFixes';
import { test, waitFor } from '../harness';
import { openFixture, probeLensDiagnostics, probeLensExtension, ruleId } from '../workbench';

const FIXTURE = 'quickfixes/fixable.yaml';
const ADD_STARTUP_PROBE = 'probeLens.addStartupProbe';
const ADD_STARTUP_PROBE_TITLE = 'Add a startupProbe derived from the livenessProbe…';

/**
 * Each rule fix of the fixture: the rule of the diagnostic it is offered on, its title, and the one
 * replacement it makes. P06's and D02's come from the findings folded into them (L04, L05 explain
 * why the API server rejects the port; `presentFindings`).
 */
const RULE_FIXES: readonly (readonly [rule: string, title: string, before: string, after: string])[] = [
  ['P06', 'Unquote the port: 8443', 'port: "8443"', 'port: 8443'],
  ['P07', 'Change the scheme to HTTPS', 'scheme: https', 'scheme: HTTPS'],
  ['P12', 'Set successThreshold to 1', 'successThreshold: 2', 'successThreshold: 1'],
  ['D01', 'Rename to failureThreshold', 'failureTreshold: 5', 'failureThreshold: 5'],
  ['D02', 'Use port 9090', 'grpc: {port: grpc}', 'grpc: {port: 9090}'],
  ['L19', 'Run it with sh -c', 'command: ["cat /tmp/healthy"]', 'command: ["sh", "-c", "cat /tmp/healthy"]'],
];

/** Findings of the fixture with no fix of their own (L10's is the startupProbe command). */
const WITHOUT_RULE_FIX = ['L10'];

/** What activate() returned: the extension's own models, which the provider reads. */
function probeLensApi(): ProbeLensApi {
  const extension = probeLensExtension();
  assert.ok(extension.isActive, 'Probe Lens is active');
  return extension.exports;
}

function rulesOf(diagnostics: readonly vscode.Diagnostic[]): string[] {
  return diagnostics.map(ruleId).sort();
}

const FIXTURE_RULES = [...RULE_FIXES.map(([rule]) => rule), ...WITHOUT_RULE_FIX].sort();

/** The fixture's diagnostics once all of them are published (and the text is the file's). */
async function publishedFixture(document: vscode.TextDocument): Promise<vscode.Diagnostic[]> {
  return waitFor(
    () => {
      const found = probeLensDiagnostics(document.uri);
      return !document.isDirty && rulesOf(found).join() === FIXTURE_RULES.join() && found;
    },
    10_000,
    () => `${FIXTURE_RULES.join(', ')} on ${FIXTURE}; saw ${rulesOf(probeLensDiagnostics(document.uri)).join(', ') || 'none'}`,
  );
}

async function codeActions(uri: vscode.Uri, range: vscode.Range, kind: vscode.CodeActionKind): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, range, kind.value);
  // A bare Command has its id in `command`; a CodeAction has a Command object there, or nothing.
  return (actions ?? []).filter((a): a is vscode.CodeAction => typeof a.command !== 'string');
}

/**
 * The quick fixes the light bulb shows on a diagnostic's range. VS Code asks with every diagnostic
 * there (several can share a range) and hands back no `diagnostics` on the actions, so which
 * diagnostic an action is for is checked on the provider itself (see the test below).
 */
function quickFixesAt(uri: vscode.Uri, diagnostic: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  return codeActions(uri, diagnostic.range, vscode.CodeActionKind.QuickFix);
}

/** `text` with `before` replaced by `after`, where `before` occurs exactly once. */
function replacedOnce(text: string, before: string, after: string): string {
  const at = text.indexOf(before);
  assert.ok(at >= 0 && text.indexOf(before, at + 1) < 0, `"${before}" occurs once in ${FIXTURE}`);
  return text.slice(0, at) + after + text.slice(at + before.length);
}

/** Undoes whatever a test did to the document, from disk: nothing is ever saved. */
async function revert(document: vscode.TextDocument, original: string): Promise<void> {
  await vscode.window.showTextDocument(document, { preview: false });
  await vscode.commands.executeCommand('workbench.action.files.revert');
  await waitFor(() => !document.isDirty && document.getText() === original, 5_000, `${FIXTURE} reverted`);
}

test('on each diagnostic the light bulb offers the fixes of the findings there, preferred; each leaves exactly the corrected text', async () => {
  const document = await openFixture(FIXTURE);
  const diagnostics = await publishedFixture(document);
  const original = document.getText();
  try {
    for (const diagnostic of diagnostics) {
      const rule = ruleId(diagnostic);
      const sharingTheRange = diagnostics.filter((d) => d.range.isEqual(diagnostic.range)).map(ruleId);
      const expected = RULE_FIXES.filter(([r]) => sharingTheRange.includes(r));
      const withEdits = (await quickFixesAt(document.uri, diagnostic)).filter((a) => a.edit !== undefined);
      assert.deepEqual(
        withEdits.map((a) => a.title),
        expected.map(([, title]) => title),
        `the fixes on ${rule}'s range (${sharingTheRange.join(', ')})`,
      );
      const fix = RULE_FIXES.find(([r]) => r === rule);
      if (!fix) continue;
      const [, , before, after] = fix;
      const action = withEdits[0] as vscode.CodeAction;
      assert.equal(action.kind?.value, vscode.CodeActionKind.QuickFix.value);
      assert.equal(action.isPreferred, true, `${rule}: the fix is preferred`);
      assert.ok(await vscode.workspace.applyEdit(action.edit as vscode.WorkspaceEdit), `${rule}: edit applied`);
      assert.equal(document.getText(), replacedOnce(original, before, after), `${rule}: the text after the fix`);
      // The finding it fixed is gone once the edit is checked again.
      await waitFor(() => !probeLensDiagnostics(document.uri).some((d) => ruleId(d) === rule), 10_000, `${rule} to go after its fix`);
      await revert(document, original);
      await publishedFixture(document);
    }
  } finally {
    if (document.isDirty) await revert(document, original);
  }
});

test('the provider matches a diagnostic to its finding by rule, range and message, and names it as the one its action fixes', async () => {
  const document = await openFixture(FIXTURE);
  const diagnostics = await publishedFixture(document);
  const provider = new ProbeQuickFixes(probeLensApi().models);
  const actionsFor = (diagnostic: vscode.Diagnostic) =>
    provider.provideCodeActions(document, diagnostic.range, { diagnostics: [diagnostic], only: vscode.CodeActionKind.QuickFix, triggerKind: vscode.CodeActionTriggerKind.Invoke });

  for (const diagnostic of diagnostics) {
    const rule = ruleId(diagnostic);
    const actions = actionsFor(diagnostic);
    const fix = RULE_FIXES.find(([r]) => r === rule);
    const expected = fix ? [fix[1]] : rule === 'L10' ? [ADD_STARTUP_PROBE_TITLE] : [];
    assert.deepEqual(actions.map((a) => a.title), expected, `${rule} alone`);
    for (const action of actions) assert.deepEqual(action.diagnostics, [diagnostic]);
  }
  // A diagnostic of another version of the text (same rule and range, other message) is not
  // this finding: its edit could land anywhere.
  const p06 = diagnostics.find((d) => ruleId(d) === 'P06') as vscode.Diagnostic;
  const stale = new vscode.Diagnostic(p06.range, `${p06.message} (an older one)`, p06.severity);
  stale.source = p06.source;
  stale.code = p06.code;
  assert.deepEqual(actionsFor(stale), []);
});

test('L10 offers to add a startupProbe; its command with a budget inserts one after the livenessProbe', async () => {
  const document = await openFixture(FIXTURE);
  const diagnostics = await publishedFixture(document);
  const original = document.getText();
  const l10 = diagnostics.find((d) => ruleId(d) === 'L10');
  assert.ok(l10);
  const actions = (await quickFixesAt(document.uri, l10)).filter((a) => a.command?.command === ADD_STARTUP_PROBE);
  assert.equal(actions.length, 1, 'one "add a startupProbe" action on L10');
  const action = actions[0] as vscode.CodeAction;
  assert.equal(action.title, ADD_STARTUP_PROBE_TITLE);
  assert.equal(action.kind?.value, vscode.CodeActionKind.QuickFix.value);
  assert.notEqual(action.isPreferred, true, 'it asks for a budget, so Auto Fix must not pick it');
  const [uri, line, ...rest] = action.command?.arguments ?? [];
  assert.equal(String(uri), document.uri.toString());
  assert.equal(line, l10.range.start.line, 'the line of the livenessProbe key');
  assert.deepEqual(rest, [], 'no budget: the user picks it');

  try {
    // What the action's command does once the user picks 120 s, without the picker.
    const applied = await vscode.commands.executeCommand<boolean>(ADD_STARTUP_PROBE, uri, line, 120);
    assert.equal(applied, true);
    const liveness = '            httpGet: {path: /healthz, port: 8080}\n';
    const startup = '          startupProbe:\n            httpGet: {path: /healthz, port: 8080}\n            failureThreshold: 12\n            periodSeconds: 10\n';
    assert.equal(document.getText(), replacedOnce(original, liveness, liveness + startup));
    await waitFor(
      () => rulesOf(probeLensDiagnostics(document.uri)).join() === FIXTURE_RULES.filter((r) => r !== 'L10').join(),
      10_000,
      () => `every finding but L10; saw ${rulesOf(probeLensDiagnostics(document.uri)).join(', ')}`,
    );
  } finally {
    await revert(document, original);
  }
});

test('a livenessProbe key without a startupProbe offers the same as a refactoring; a budget that is not a multiple of the period is rounded up', async () => {
  const document = await openFixture(FIXTURE);
  await publishedFixture(document);
  const original = document.getText();
  const key = '          livenessProbe:\n            exec:';
  const start = document.positionAt(original.indexOf(key) + '          '.length);
  assert.ok(original.indexOf(key) >= 0 && original.indexOf(key, original.indexOf(key) + 1) < 0, 'the api container has the only exec liveness');
  const keyRange = new vscode.Range(start, start.translate(0, 'livenessProbe'.length));

  const actions = (await codeActions(document.uri, keyRange, vscode.CodeActionKind.RefactorRewrite)).filter((a) => a.command?.command === ADD_STARTUP_PROBE);
  assert.equal(actions.length, 1);
  const action = actions[0] as vscode.CodeAction;
  assert.equal(action.title, ADD_STARTUP_PROBE_TITLE);
  assert.equal(action.kind?.value, vscode.CodeActionKind.RefactorRewrite.value);
  assert.equal(action.command?.arguments?.[1], start.line);

  try {
    // 95 s with the default 10 s period: ⌈95 / 10⌉ = 10 attempts, 100 s.
    assert.equal(await vscode.commands.executeCommand<boolean>(ADD_STARTUP_PROBE, document.uri, start.line, 95), true);
    const command = '              command: ["cat /tmp/healthy"]\n';
    const startup = '          startupProbe:\n            exec:\n              command: ["cat /tmp/healthy"]\n            failureThreshold: 10\n            periodSeconds: 10\n';
    assert.equal(document.getText(), replacedOnce(original, command, command + startup));
  } finally {
    await revert(document, original);
  }
});

test('the add-startupProbe command refuses a budget liveness alone already covers, and changes nothing', async () => {
  const document = await openFixture(FIXTURE);
  const diagnostics = await publishedFixture(document);
  const l10 = diagnostics.find((d) => ruleId(d) === 'L10');
  assert.ok(l10);
  // The slow container's liveness kills at 0 + 3 × 10 = 30 s: a 30 s startupProbe adds nothing.
  assert.equal(await vscode.commands.executeCommand<boolean>(ADD_STARTUP_PROBE, document.uri.toString(), l10.range.start.line, 30), false);
  assert.equal(document.isDirty, false);
});

// ---------------------------------------------------------------------------------------------
// Issue 10 §5: use a declared port or declare it (L01), lower timeoutSeconds (L12), curl/wget's
// own timeout (L21), on test/e2e/fixtures/workspace/quickfixes/ports-and-timeouts.yaml.
// ---------------------------------------------------------------------------------------------

const MORE = 'quickfixes/ports-and-timeouts.yaml';
const DECLARE_PORT = 'probeLens.declarePort';

/** A diagnostic of MORE by its rule and the first line of the text it marks: `L01 htpp`. */
function keyOf(document: vscode.TextDocument, diagnostic: vscode.Diagnostic): string {
  return `${ruleId(diagnostic)} ${document.getText(diagnostic.range).split('\n')[0]?.trim()}`;
}

const CURL_BEFORE = '            - curl\n            - -fsS\n            - http://localhost:9100/healthz\n';
const CURL_AFTER = '            - curl\n            - --max-time\n            - "1"\n            - -fsS\n            - http://localhost:9100/healthz\n        timeoutSeconds: 2\n';

/**
 * Each diagnostic of MORE: every title its light bulb lists, in order (the first preferred), and
 * for each fix that edits, the one replacement it makes.
 */
const MORE_FIXES: Readonly<Record<string, { titles: readonly string[]; edits: readonly (readonly [title: string, before: string, after: string])[] }>> = {
  'L01 htpp': {
    titles: ['Use port "http" (8080)', 'Use port "admin" (9000)', 'Declare port "htpp"…'],
    edits: [
      ['Use port "http" (8080)', 'port: htpp}', 'port: http}'],
      ['Use port "admin" (9000)', 'port: htpp}', 'port: admin}'],
    ],
  },
  'L12 15': { titles: ['Lower timeoutSeconds to 9'], edits: [['Lower timeoutSeconds to 9', 'timeoutSeconds: 15', 'timeoutSeconds: 9']] },
  'L21 - curl': { titles: ['Add curl --max-time 1 and raise timeoutSeconds to 2'], edits: [['Add curl --max-time 1 and raise timeoutSeconds to 2', CURL_BEFORE, CURL_AFTER]] },
  'L01 metrics': { titles: ['Declare port "metrics"…'], edits: [] },
};

async function publishedMore(document: vscode.TextDocument): Promise<vscode.Diagnostic[]> {
  const expected = Object.keys(MORE_FIXES).sort().join(', ');
  const keys = () => probeLensDiagnostics(document.uri).map((d) => keyOf(document, d)).sort().join(', ');
  return waitFor(() => !document.isDirty && keys() === expected && probeLensDiagnostics(document.uri), 10_000, () => `${expected} on ${MORE}; saw ${keys() || 'none'}`);
}

test('L01, L12, L21: each light bulb lists its fixes, the first preferred; each fix leaves exactly the corrected text and ends its finding', async () => {
  const document = await openFixture(MORE);
  const diagnostics = await publishedMore(document);
  const original = document.getText();
  try {
    for (const diagnostic of diagnostics) {
      const key = keyOf(document, diagnostic);
      const expected = MORE_FIXES[key];
      assert.ok(expected, key);
      const actions = await quickFixesAt(document.uri, diagnostic);
      assert.deepEqual(
        actions.map((a) => a.title),
        expected.titles,
        `the light bulb on ${key}`,
      );
      assert.deepEqual(
        actions.map((a) => a.isPreferred === true),
        expected.titles.map((title, i) => i === 0 && !title.endsWith('…')),
        `${key}: only the first fix is preferred, and never a command that asks`,
      );
      for (const [title, before, after] of expected.edits) {
        const action = actions.find((a) => a.title === title);
        assert.ok(action?.edit, `${key}: "${title}" edits`);
        assert.ok(await vscode.workspace.applyEdit(action.edit), `${key}: "${title}" applied`);
        assert.equal(document.getText(), replacedOnce(original, before, after), `${key}: the text after "${title}"`);
        await waitFor(() => !probeLensDiagnostics(document.uri).some((d) => keyOf(document, d) === key), 10_000, `${key} to go after "${title}"`);
        await revert(document, original);
        await publishedMore(document);
      }
    }
  } finally {
    if (document.isDirty) await revert(document, original);
  }
});

test('L01: "Declare port" runs a command that adds the port, with the number given, to the container\'s own ports', async () => {
  const document = await openFixture(MORE);
  const diagnostics = await publishedMore(document);
  const original = document.getText();
  const metrics = diagnostics.find((d) => keyOf(document, d) === 'L01 metrics') as vscode.Diagnostic;
  const action = (await quickFixesAt(document.uri, metrics)).find((a) => a.command?.command === DECLARE_PORT);
  assert.ok(action, 'a Declare port action');
  assert.equal(action.edit, undefined, 'no edit of its own: it asks for the number first');
  const [uri, line, name, ...rest] = action.command?.arguments ?? [];
  assert.deepEqual([String(uri), line, name, rest], [document.uri.toString(), metrics.range.start.line, 'metrics', []]);

  try {
    // What the command does once the user types 9100, without the input box.
    assert.equal(await vscode.commands.executeCommand<boolean>(DECLARE_PORT, uri, line, name, 9100), true);
    const image = '      image: shop/worker:2.0\n';
    assert.equal(document.getText(), replacedOnce(original, image, `${image}      ports:\n        - name: metrics\n          containerPort: 9100\n`));
    await waitFor(() => !probeLensDiagnostics(document.uri).some((d) => keyOf(document, d) === 'L01 metrics'), 10_000, 'L01 metrics to go');
    await revert(document, original);
    await publishedMore(document);

    // A number the container already declares under another name is refused, and nothing changes.
    const htpp = probeLensDiagnostics(document.uri).find((d) => keyOf(document, d) === 'L01 htpp') as vscode.Diagnostic;
    assert.equal(await vscode.commands.executeCommand<boolean>(DECLARE_PORT, document.uri, htpp.range.start.line, 'htpp', 8080), false);
    assert.equal(document.isDirty, false);
    assert.equal(await vscode.commands.executeCommand<boolean>(DECLARE_PORT, document.uri, htpp.range.start.line, 'htpp', 8081), true);
    const admin = '        - name: admin\n          containerPort: 9000\n';
    assert.equal(document.getText(), replacedOnce(original, admin, `${admin}        - name: htpp\n          containerPort: 8081\n`));
  } finally {
    await revert(document, original);
  }
});
