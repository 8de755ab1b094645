/**
 * Helm charts and kustomize overlays in a real extension host, rendered by the real helm 4.1.4
 * and kubectl 1.35.2 (scripts/install-renderers.mjs): charts/web and overlays/{base,prod} of the
 * fixture workspace. Findings appear on the values and patch lines that set them, follow unsaved
 * edits, fix where they are placed, fail as one diagnostic at helm's line, and stop with the
 * setting that turns rendering off (docs/spec/rendering.md §E).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ProbeLensApi } from '../../../src/extension/extension';
import type { ProbingSession } from '../../../src/extension/sessions/probingSession';
import { renderedUriOf } from '../../../src/extension/rendering/renderedOutput';
import { test, waitFor } from '../harness';
import { captureMessages } from '../notifications';
import { activateProbeLens, fixtureUri, openFixture, probeLensDiagnostics, ruleId } from '../workbench';

const VALUES = 'charts/web/values.yaml';
const TEMPLATE = 'charts/web/templates/deployment.yaml';

/** The repository's .renderers.json (this file runs as out/test/extension/suite/rendering.vstest.js). */
function renderers(): { helm4: string; kubectl: string } {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', '.renderers.json'), 'utf8')) as Record<string, { path: string }>;
  return { helm4: (manifest['helm4'] as { path: string }).path, kubectl: (manifest['kubectl'] as { path: string }).path };
}

const config = () => vscode.workspace.getConfiguration('probeLens');

async function useRealRenderers(): Promise<ProbeLensApi> {
  const api = await activateProbeLens();
  const { helm4, kubectl } = renderers();
  await config().update('helm.path', helm4, vscode.ConfigurationTarget.Global);
  await config().update('kustomize.path', kubectl, vscode.ConfigurationTarget.Global);
  return api;
}

function lineOf(document: vscode.TextDocument, needle: string): number {
  const line = document.getText().split('\n').findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `${needle} in ${document.uri.path}`);
  return line;
}

function rules(uri: vscode.Uri): string {
  return probeLensDiagnostics(uri)
    .map((d) => `${ruleId(d)}@${d.range.start.line}`)
    .sort()
    .join(' ');
}

function y03Of(uri: vscode.Uri): string {
  return probeLensDiagnostics(uri).find((d) => ruleId(d) === 'Y03')?.message ?? '';
}

async function revert(document: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(document, { preview: false });
  await vscode.commands.executeCommand('workbench.action.files.revert');
}

async function replaceText(document: vscode.TextDocument, from: string, to: string): Promise<void> {
  const start = document.getText().indexOf(from);
  assert.ok(start >= 0, `${from} in ${document.uri.path}`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(start), document.positionAt(start + from.length)), to);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

test('E01, M01: a chart\'s values.yaml, opened, gets the rendered finding on the values line that sets it; the template\'s "templated" note gives way to the render', async () => {
  await useRealRenderers();
  const values = await openFixture(VALUES);
  const template = await openFixture(TEMPLATE);
  const p12 = lineOf(values, 'successThreshold: 2');
  await waitFor(() => rules(values.uri).includes(`P12@${p12}`), 20_000, () => `P12 at values line ${p12}; saw ${rules(values.uri) || 'none'}`);
  const diagnostic = probeLensDiagnostics(values.uri).find((d) => ruleId(d) === 'P12') as vscode.Diagnostic;
  assert.equal(diagnostic.range.start.character, 20, 'on the value 2');
  const related = diagnostic.relatedInformation?.find((r) => r.location.uri.scheme === 'probe-lens-rendered');
  assert.ok(related, 'the related information points into the rendered output');
  assert.match(related.message, /rendered from web\/templates\/deployment\.yaml at spec\.template\.spec\.containers\[0\]\.livenessProbe\.successThreshold.*set by livenessProbe\.successThreshold/);
  await waitFor(() => !rules(template.uri).includes('Y03'), 10_000, () => `no Y03 on the template once the chart renders; saw ${rules(template.uri)}`);
}, { timeoutMs: 40_000 });

test('E02, E03, M07: an unsaved values edit re-renders from the buffer, once, with the proof recalled; nothing is saved', async () => {
  const api = await useRealRenderers();
  const values = await openFixture(VALUES);
  const root = fixtureUri('charts/web').fsPath;
  await waitFor(() => api.rendered.resultOf(root)?.outcome.ok, 20_000, () => 'the chart rendered');
  const before = api.rendered.rendersStarted(root);
  const proven = api.rendered.proofsOf(root).proven;
  try {
    await replaceText(values, 'successThreshold: 2', 'successThreshold: 1');
    await waitFor(() => !rules(values.uri).includes('P12'), 20_000, () => `P12 gone after the edit; saw ${rules(values.uri)}`);
    assert.ok(values.isDirty, 'the edit is not saved');
    assert.equal(readFileSync(values.uri.fsPath, 'utf8').includes('successThreshold: 2'), true, 'the file on disk is untouched');
    assert.equal(api.rendered.rendersStarted(root) - before, 1, 'one render for one pause in typing');
    assert.equal(api.rendered.proofsOf(root).proven, proven, 'no target proven again: the memo recalled them');
  } finally {
    await revert(values);
  }
  await waitFor(() => rules(values.uri).includes('P12'), 20_000, () => 'P12 back after the revert');
}, { timeoutMs: 60_000 });

test('E06: the quick fix of a rendered finding edits the values key it was placed on', async () => {
  await useRealRenderers();
  const values = await openFixture(VALUES);
  const line = lineOf(values, 'successThreshold: 2');
  const diagnostic = await waitFor(() => probeLensDiagnostics(values.uri).find((d) => ruleId(d) === 'P12'), 20_000, () => 'P12 on values.yaml');
  const actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', values.uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value)) ?? [];
  const fix = actions.find((a) => a.title === 'Set successThreshold to 1');
  assert.ok(fix?.edit, `the fix is offered; got ${actions.map((a) => a.title).join(', ')}`);
  assert.equal(fix.isPreferred, true);
  try {
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(values.lineAt(line).text, '  successThreshold: 1');
  } finally {
    await revert(values);
  }
}, { timeoutMs: 40_000 });

test('E04: a template that does not parse is one error at the line helm names; fixed, the findings come back', async () => {
  const api = await useRealRenderers();
  const template = await openFixture(TEMPLATE);
  const values = await openFixture(VALUES);
  const root = fixtureUri('charts/web').fsPath;
  try {
    await replaceText(template, '{{ .Values.image }}', '{{ .Values.image ');
    const broken = await waitFor(() => probeLensDiagnostics(template.uri).find((d) => d.code === 'render-error'), 20_000, () => `a render error on the template; saw ${rules(template.uri)}`);
    // The unclosed action swallows the newline; helm names the next line, where it gave up ("parse error at (web/templates/deployment.yaml:17)").
    assert.equal(broken.range.start.line, lineOf(template, 'ports:'), `at helm's line: ${broken.message}`);
    assert.match(broken.message, /function "ports" not defined/);
    assert.equal(broken.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(api.rendered.resultOf(root)?.outcome.ok, false);
    assert.ok(!rules(values.uri).includes('P12'), 'no stale findings from the last good render');
  } finally {
    await revert(template);
  }
  await waitFor(() => rules(values.uri).includes('P12') && probeLensDiagnostics(template.uri).every((d) => d.code !== 'render-error'), 20_000, () => 'back to the finding');
}, { timeoutMs: 60_000 });

test('E07, M08: the probe lenses sit on values.yaml\'s probe keys with the plain manifest\'s words, and the run lenses on its first line; the hover names the workload', async () => {
  await useRealRenderers();
  const values = await openFixture(VALUES);
  await waitFor(() => rules(values.uri).includes('P12'), 20_000, () => 'the chart rendered');
  const lenses = await waitFor(async () => {
    const found = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', values.uri, 10)) ?? [];
    return found.length >= 5 && found;
  }, 10_000, () => 'the lenses');
  const at = (line: number) => lenses.filter((l) => l.range.start.line === line).map((l) => l.command?.title ?? '');
  assert.deepEqual(at(0), ['$(play) Run probes…', '$(beaker) Simulate…', '$(file-code) Open rendered']);
  assert.deepEqual(at(lineOf(values, 'livenessProbe:')), ['never runs: the API server rejects it (P12)']);
  const readiness = at(lineOf(values, 'readinessProbe:'));
  assert.equal(readiness.length, 1);
  assert.match(readiness[0] as string, /unready after/);
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', values.uri, new vscode.Position(lineOf(values, 'readinessProbe:'), 2))) ?? [];
  const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
  assert.match(text, /Rendered by helm template into Deployment `release-name-web`/);
  assert.match(text, /readinessProbe\*\* of `web`/);
}, { timeoutMs: 40_000 });

test('E07: the rendered chart opens as a read-only YAML document and simulates like any manifest', async () => {
  const api = await useRealRenderers();
  await openFixture(VALUES);
  const root = fixtureUri('charts/web').fsPath;
  await waitFor(() => api.rendered.resultOf(root)?.outcome.ok, 20_000, () => 'the chart rendered');
  const uri = await vscode.commands.executeCommand<vscode.Uri>('probeLens.rendered.open', { root });
  assert.equal(uri.toString(), renderedUriOf({ kind: 'chart', root }).toString());
  const rendered = await vscode.workspace.openTextDocument(uri);
  assert.equal(rendered.languageId, 'yaml');
  assert.match(rendered.getText(), /# Source: web\/templates\/deployment\.yaml/);
  await waitFor(() => probeLensDiagnostics(uri).some((d) => ruleId(d) === 'P12'), 10_000, () => 'the rendered document is checked too');
  const capture = captureMessages();
  let session: ProbingSession | undefined;
  try {
    session = await vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri, scenario: fixtureUri('charts/web/web.scenario.yaml'), speed: 60 });
  } finally {
    capture.restore();
  }
  assert.ok(session, `the simulation started: ${capture.shown.map((s) => s.message).join('; ') || 'nothing said'}`);
  try {
    assert.deepEqual(session.pods.map((p) => p.identity.name), ['release-name-web']);
  } finally {
    session.dispose();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  }
}, { timeoutMs: 40_000 });

test('E01, E05, E09, K03: an overlay\'s patch gets the finding the prod overlay\'s build places there — and none of the fragment\'s own (its probe\'s handler is in the base) — and the base resource no duplicate', async () => {
  await useRealRenderers();
  const patch = await openFixture('overlays/prod/probes.yaml');
  const line = lineOf(patch, 'successThreshold: 3');
  await waitFor(() => rules(patch.uri) === `P12@${line}`, 30_000, () => `only P12 on the patch line ${line}; saw ${rules(patch.uri) || 'none'}`);
  const lenses = await waitFor(async () => {
    const found = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', patch.uri, 10)) ?? [];
    return found.some((l) => /P12/.test(l.command?.title ?? '')) && found;
  }, 10_000, () => 'the rendered probe lens on the patch');
  assert.deepEqual(lenses.map((l) => `${l.range.start.line}: ${l.command?.title}`), [`${lineOf(patch, 'livenessProbe:')}: never runs: the API server rejects it (P12)`], 'the merged probe\'s lens, no run lenses on a fragment');
  const fixes = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', patch.uri, new vscode.Range(line, 29, line, 30), vscode.CodeActionKind.QuickFix.value)) ?? [];
  assert.deepEqual(fixes.map((f) => f.title), ['Set successThreshold to 1'], 'one fix, from the render');
  const base = await openFixture('overlays/base/deployment.yaml');
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  assert.ok(!rules(base.uri).includes('P12'), `the base sets no successThreshold: ${rules(base.uri)}`);
  // The base is a manifest of its own: its probes keep their own lenses, one each, not a rendered twin.
  const baseLenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', base.uri, 10)) ?? [];
  assert.deepEqual(['readinessProbe:', 'livenessProbe:'].map((key) => baseLenses.filter((l) => l.range.start.line === lineOf(base, key)).length), [1, 1]);
}, { timeoutMs: 60_000 });

test('E04: a helm that cannot be found is one notice with Open Settings, not a diagnostic per keystroke; the template keeps its Y03', async () => {
  await useRealRenderers();
  const capture = captureMessages();
  try {
    await config().update('helm.path', '/nonexistent/helm', vscode.ConfigurationTarget.Global);
    const values = await openFixture(VALUES);
    const template = await openFixture(TEMPLATE);
    const shown = await capture.next(/helm was not found at \/nonexistent\/helm/, 20_000);
    assert.deepEqual(shown.buttons, ['Open Settings']);
    await replaceText(values, 'periodSeconds: 5', 'periodSeconds: 6');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(capture.shown.filter((s) => /helm was not found/.test(s.message)).length, 1, 'once, not per edit');
    assert.ok(!rules(values.uri).includes('P12'), 'nothing rendered, nothing placed');
    await waitFor(() => rules(template.uri).includes('Y03'), 10_000, () => `Y03 back on the template; saw ${rules(template.uri)}`);
    assert.match(y03Of(template.uri), /Probe Lens renders its chart with helm \(probeLens\.helm\.path: \/nonexistent\/helm\) and checks the output/, 'Y03 names the setting that turns rendering on');
    await revert(values);
  } finally {
    capture.restore();
    await useRealRenderers();
  }
}, { timeoutMs: 60_000 });

test('E08: probeLens.render.enabled off: nothing renders, the rendered findings go, the templates\' own come back and say how to turn it on', async () => {
  const api = await useRealRenderers();
  const values = await openFixture(VALUES);
  const template = await openFixture(TEMPLATE);
  await waitFor(() => rules(values.uri).includes('P12'), 20_000, () => 'the chart rendered');
  try {
    await config().update('render.enabled', false, vscode.ConfigurationTarget.Global);
    await waitFor(() => !rules(values.uri).includes('P12'), 10_000, () => 'the rendered finding is gone');
    await waitFor(() => /turn on probeLens\.render\.enabled/.test(y03Of(template.uri)), 10_000, () => `the template's Y03 says how to turn rendering on; saw ${y03Of(template.uri) || 'none'}`);
    const started = api.rendered.rendersStarted();
    await replaceText(values, 'periodSeconds: 5', 'periodSeconds: 6');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(api.rendered.rendersStarted(), started, 'no render while it is off');
    await revert(values);
  } finally {
    await config().update('render.enabled', undefined, vscode.ConfigurationTarget.Global);
  }
  await waitFor(() => rules(values.uri).includes('P12'), 20_000, () => 'on again: rendered again');
}, { timeoutMs: 60_000 });
