/**
 * Activation and diagnostics, inside a real VS Code extension host against the fixture
 * workspace test/e2e/fixtures/workspace (a throw-away copy of it).
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { test, waitFor } from '../harness';
import { ruleDocTarget } from '../../../src/extension/commands/ruleDocs';
import { openFixture, probeLensDiagnostics, probeLensExtension, ruleId } from '../workbench';


/**
 * What web-deployment.yaml must produce: rule, severity, 0-based range, the start of the message
 * (one diagnostic per problem: the quoted port's P06 carries L04's explanation).
 */
const WEB_DEPLOYMENT_FINDINGS = [
  ['L10', 'Warning', '20:10-20:23', 'container "web": liveness can kill the container 30 s after it starts, before readiness even begins at 60 s'],
  ['P06', 'Error', '23:20-23:26', 'container "web": liveness port "8080" is a string, so the API server reads it as a port name and rejects it: write 8080 without quotes'],
  ['P12', 'Error', '24:30-24:31', `container "web": the liveness probe's successThreshold is 2, but liveness needs 1: the API server rejects it`],
  ['L19', 'Error', '34:23-34:58', 'container "metrics": the whole line "curl -sf localhost:9100/metrics" is a single argument'],
  ['L21', 'Information', '34:23-34:58', 'container "metrics": curl without --max-time'],
] as const;

/** The first non-empty set of diagnostics published for the document. */
function published(document: vscode.TextDocument): Promise<vscode.Diagnostic[]> {
  return waitFor(() => {
    const found = probeLensDiagnostics(document.uri);
    return found.length > 0 && found;
  }, 10_000, `probe-lens diagnostics on ${document.fileName}`);
}

function describe(diagnostic: vscode.Diagnostic): string {
  const { start, end } = diagnostic.range;
  return `${ruleId(diagnostic)} ${vscode.DiagnosticSeverity[diagnostic.severity]} ${start.line}:${start.character}-${end.line}:${end.character}`;
}

function sortedDescriptions(diagnostics: readonly vscode.Diagnostic[]): string[] {
  return diagnostics.map(describe).sort();
}

function seen(uri: vscode.Uri): string {
  return sortedDescriptions(probeLensDiagnostics(uri)).join(', ') || 'none';
}

function sameDiagnostics(uri: vscode.Uri, expected: readonly string[]): boolean {
  return sortedDescriptions(probeLensDiagnostics(uri)).join() === expected.join();
}

const EXPECTED_DESCRIPTIONS = WEB_DEPLOYMENT_FINDINGS.map(([rule, severity, range]) => `${rule} ${severity} ${range}`).sort();

test('the extension activates when a YAML file is opened, not before', async () => {
  const probeLens = probeLensExtension();
  // A non-YAML document must not wake it (activationEvents: onLanguage:yaml only). This holds
  // only while no earlier test has opened YAML: keep this the first test of the first suite.
  await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'not a manifest' });
  assert.equal(probeLens.isActive, false, 'active before any YAML file was opened');

  const document = await openFixture('web-deployment.yaml');
  assert.equal(document.languageId, 'yaml');
  await waitFor(() => probeLens.isActive, 10_000, 'the extension to activate');
});

test('web-deployment.yaml gets exactly the expected probe-lens diagnostics', async () => {
  const document = await openFixture('web-deployment.yaml');
  const diagnostics = await published(document);

  assert.deepEqual(sortedDescriptions(diagnostics), EXPECTED_DESCRIPTIONS);
  for (const [rule, , range, messagePart] of WEB_DEPLOYMENT_FINDINGS) {
    const diagnostic = diagnostics.find((d) => ruleId(d) === rule && describe(d).endsWith(range));
    assert.ok(diagnostic, `${rule} at ${range}`);
    assert.ok(diagnostic.message.startsWith(messagePart), `${rule} message: ${diagnostic.message}`);
  }
  // The API server's exact text, with its full field path, beside the plain words.
  const related = (rule: string) => diagnostics.find((d) => ruleId(d) === rule)?.relatedInformation?.map((r) => `${r.location.range.start.line}: ${r.message}`);
  assert.deepEqual(related('P06'), ['23: API server: spec.template.spec.containers[0].livenessProbe.httpGet.port: Invalid value: "8080": must contain at least one letter (a-z)']);
  assert.deepEqual(related('P12'), ['24: API server: spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1']);
  assert.equal(related('L10'), undefined, "Probe Lens's own findings have no API text");
});

test('each diagnostic code is its rule id, linking to that rule\'s page (probeLens.showRuleDoc)', async () => {
  const document = await openFixture('web-deployment.yaml');
  const diagnostics = await published(document);
  for (const diagnostic of diagnostics) {
    const code = diagnostic.code;
    assert.ok(typeof code === 'object', `${describe(diagnostic)}: code has a target`);
    assert.match(String(code.value), /^[DPLY]\d\d$/);
    assert.equal(code.target.toString(), ruleDocTarget(String(code.value)).toString());
  }
});

test('healthy.yaml has no findings; a mistake typed into it appears, and goes when reverted', async () => {
  const document = await openFixture('healthy.yaml');
  const anchor = 'periodSeconds: 10'; // the livenessProbe's, the only one with 10
  const offset = document.getText().indexOf(anchor);
  assert.ok(offset > 0 && document.getText().indexOf(anchor, offset + 1) < 0, `one "${anchor}" in healthy.yaml`);
  const at = document.positionAt(offset);

  const edit = new vscode.WorkspaceEdit();
  edit.insert(document.uri, at, 'successThreshold: 2\n' + ' '.repeat(at.character));
  assert.ok(await vscode.workspace.applyEdit(edit));
  const afterEdit = await published(document);
  assert.deepEqual(sortedDescriptions(afterEdit), [`P12 Error ${at.line}:${at.character + 'successThreshold: '.length}-${at.line}:${at.character + 'successThreshold: 2'.length}`]);

  await vscode.window.showTextDocument(document, { preview: false });
  await vscode.commands.executeCommand('workbench.action.files.revert');
  assert.equal(document.isDirty, false);
  // Re-checked after the revert: an empty list now means "checked, nothing found".
  await waitFor(() => probeLensDiagnostics(document.uri).length === 0, 10_000, () => `no diagnostics after the revert; saw ${seen(document.uri)}`);
});

test('probeLens.disabledRules hides those rules and brings them back when cleared', async () => {
  const document = await openFixture('web-deployment.yaml');
  const settings = () => vscode.workspace.getConfiguration('probeLens', document.uri);
  // Global = the harness's throw-away user profile, so no settings file lands in the workspace.
  await settings().update('disabledRules', ['L04', 'l21'], vscode.ConfigurationTarget.Global);
  try {
    const withoutInfos = EXPECTED_DESCRIPTIONS.filter((d) => !d.startsWith('L04 ') && !d.startsWith('L21 '));
    await waitFor(() => sameDiagnostics(document.uri, withoutInfos), 10_000, () => `${withoutInfos.join(', ')}; saw ${seen(document.uri)}`);
  } finally {
    await settings().update('disabledRules', undefined, vscode.ConfigurationTarget.Global);
  }
  await waitFor(() => sameDiagnostics(document.uri, EXPECTED_DESCRIPTIONS), 10_000, () => `all six diagnostics again; saw ${seen(document.uri)}`);
});
