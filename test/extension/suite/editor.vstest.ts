/**
 * The editing surfaces inside a real VS Code: code lenses and hovers on the fixture
 * editor/shop.yaml, and the incremental re-read of a multi-document file.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ProbeLensApi } from '../../../src/extension/extension';
import { test, waitFor } from '../harness';
import { activateProbeLens, openFixture, openUntitledYaml, probeLensDiagnostics, ruleId } from '../workbench';

function lensLines(lenses: readonly vscode.CodeLens[]): string[] {
  return lenses.map((lens) => `${lens.range.start.line}: ${lens.command?.title ?? '(unresolved)'}`);
}

test('code lenses: actions on each probing container, the timing of each probe', async () => {
  await activateProbeLens();
  const document = await openFixture('editor/shop.yaml');
  const lenses = await waitFor(async () => {
    const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri, 100);
    return found.length > 0 && found;
  }, 10_000, 'code lenses on shop.yaml');
  assert.deepEqual(lensLines(lenses), [
    '12: $(play) Run probes',
    '12: $(beaker) Simulate',
    '17: startup budget 300 s',
    '21: liveness kills after 30 s failing',
    '23: unready after 15 s failing',
    '35: $(play) Run probes',
    '35: $(beaker) Simulate',
    '37: liveness kills after 65 s',
  ]);
  const run = lenses[0]?.command;
  assert.equal(run?.command, 'probeLens.startProbing');
  assert.deepEqual(run?.arguments, [{ uri: document.uri, pod: 'shop' }]);
});

test('hover on a probe: effective values with defaults marked, and when it acts', async () => {
  // Active before asking, so the test also passes on its own (PROBE_LENS_VSTEST_GREP).
  await activateProbeLens();
  const document = await openFixture('editor/shop.yaml');
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(22, 20));
  const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
  assert.match(text, /\*\*livenessProbe\*\* of `api`/);
  assert.match(text, /\| periodSeconds \| 10 \*\(default\)\* \|/);
  assert.match(text, /after 30 s of failures once the startup probe has succeeded/);
  assert.match(text, /\*\*Probes\*\* `http:\/\/<pod IP>:8080\/healthz` \(port `http`\)/, 'the address, with the pod IP named and the port resolved');
  const outside = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(3, 4));
  assert.ok(!outside.some((h) => h.contents.some((c) => (typeof c === 'string' ? c : c.value).includes('Probe**'))), 'no probe hover on metadata');
});

test('an edit in one document of twenty re-reads only that document', async () => {
  const api: ProbeLensApi = await activateProbeLens();
  const pod = (i: number) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p${i}\nspec:\n  containers:\n    - name: c\n      image: x\n      livenessProbe:\n        httpGet: {path: /, port: 80}\n        successThreshold: 1\n`;
  const content = Array.from({ length: 20 }, (_, i) => pod(i)).join('---\n');
  const document = await openUntitledYaml(content, 'twenty-pods');
  await vscode.window.showTextDocument(document, { preview: false });
  api.models.get(document);
  const before = api.models.chunksRead;
  const line = content.split('\n').findIndex((l, i, all) => l.includes('successThreshold') && all.slice(0, i).filter((x) => x === '---').length === 7);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(line, 26, line, 27), '2');
  assert.ok(await vscode.workspace.applyEdit(edit));
  const diagnostics = await waitFor(() => {
    const found = probeLensDiagnostics(document.uri);
    return found.length > 0 && found;
  }, 5_000, 'the P12 diagnostic of the edited document');
  assert.deepEqual(diagnostics.map((d) => `${d.range.start.line} ${ruleId(d)}`), [`${line} P12`]);
  assert.equal(api.models.chunksRead - before, 1, 'one chunk read for the edit');
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
});

test('L17 looks across the open manifests: a Service opened in another editor clears the Job\'s warning, closing it brings it back', async () => {
  await activateProbeLens();
  const job = await openUntitledYaml('apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: default-domain\nspec:\n  template:\n    metadata:\n      labels: {app: default-domain}\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: default-domain\n          image: x\n          readinessProbe:\n            httpGet: {path: /, port: 8080}\n', 'job');

  await vscode.window.showTextDocument(job, { preview: false });
  const rules = () => probeLensDiagnostics(job.uri).map(ruleId).join();
  await waitFor(() => rules() === 'L17', 10_000, () => `L17 on the Job alone (saw ${rules() || 'none'})`);
  // No `containers` in it: read for its Services only, and given no diagnostics of its own.
  const service = await openUntitledYaml('apiVersion: v1\nkind: Service\nmetadata:\n  name: default-domain\nspec:\n  selector: {app: default-domain}\n  ports: [{port: 80}]\n', 'service');
  await vscode.window.showTextDocument(service, { preview: false });
  await waitFor(() => rules() === '', 10_000, () => `L17 to clear once the Service is open (saw ${rules()})`);
  assert.deepEqual(probeLensDiagnostics(service.uri), []);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  await waitFor(() => rules() === 'L17', 10_000, () => `L17 back once the Service is closed (saw ${rules() || 'none'})`);
  await vscode.window.showTextDocument(job, { preview: false });
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
});

test('a key typed before its colon: the lenses stay on their lines and the findings stay, with the syntax error beside them', async () => {
  await activateProbeLens();
  const document = await openUntitledYaml('apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n    - name: web\n      image: x\n      ports: [{name: http, containerPort: 8080}]\n      livenessProbe:\n        httpGet: {path: /healthz, port: http}\n        successThreshold: 2\n      readinessProbe:\n        httpGet: {path: /ready, port: "8080"}\n', 'half-typed');

  await vscode.window.showTextDocument(document, { preview: false });
  const lenses = async () => lensLines(await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri, 100));
  const rules = () => probeLensDiagnostics(document.uri).map((d) => `${d.range.start.line} ${ruleId(d)}`).sort();
  await waitFor(() => rules().length === 2, 10_000, () => `P12 and P06 (saw ${rules().join(', ')})`);
  const before = { lenses: await lenses(), rules: rules() };
  // A new line under `httpGet`, and a key half typed on it: the document no longer parses.
  const edit = new vscode.WorkspaceEdit();
  edit.insert(document.uri, new vscode.Position(9, 45), '\n        failureThresh');
  assert.ok(await vscode.workspace.applyEdit(edit));
  await waitFor(() => rules().some((r) => r.endsWith('Y01')), 10_000, () => `the syntax error (saw ${rules().join(', ')})`);
  const shift = (line: string) => line.replace(/^(\d+)/, (n) => String(Number(n) >= 10 ? Number(n) + 1 : Number(n)));
  assert.deepEqual(await lenses(), before.lenses.map(shift), 'the lenses of the last readable text, moved with the new line');
  assert.deepEqual(rules().filter((r) => !r.endsWith('Y01')), before.rules.map(shift).sort(), 'the findings stay, moved with it');
  // Typed to the end, the document reads again: its own findings, fresh.
  const finish = new vscode.WorkspaceEdit();
  finish.insert(document.uri, new vscode.Position(10, 21), 'old: 3');
  assert.ok(await vscode.workspace.applyEdit(finish));
  await waitFor(() => !rules().some((r) => r.endsWith('Y01')), 10_000, () => `the syntax error to go (saw ${rules().join(', ')})`);
  assert.deepEqual(rules(), before.rules.map(shift).sort());
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
});
