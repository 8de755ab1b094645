/**
 * Settings per folder, in a multi-root workspace (test/e2e/fixtures/multi-root): each folder's
 * `probeLens.*` overrides reach the diagnostics of its own documents, and only theirs. The same
 * manifest sits in both folders; `relaxed` turns P12 off and targets Kubernetes 1.22.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { test, waitFor } from '../harness';
import { activateProbeLens, probeLensDiagnostics, ruleId } from '../workbench';

function folder(name: string): vscode.WorkspaceFolder {
  const found = vscode.workspace.workspaceFolders?.find((f) => f.name === name);
  assert.ok(found, `the multi-root workspace has a folder "${name}" (folders: ${vscode.workspace.workspaceFolders?.map((f) => f.name).join(', ')})`);
  return found;
}

async function open(folderName: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder(folderName).uri, 'web.yaml'));
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

const rules = (document: vscode.TextDocument) => probeLensDiagnostics(document.uri).map(ruleId).sort();

test('each folder of a multi-root workspace checks its documents with its own settings', async () => {
  await activateProbeLens();
  assert.equal(vscode.workspace.workspaceFolders?.length, 2, 'two folders are open');
  const strict = await open('strict');
  const relaxed = await open('relaxed');
  // strict: the workspace's defaults (1.33): successThreshold 2 on liveness is P12.
  await waitFor(() => rules(strict).includes('P12'), 10_000, 'P12 in strict/web.yaml');
  assert.deepEqual(rules(strict), ['P12']);
  // relaxed: P12 off; and 1.22 has no grpc field yet (D01 for an unknown field, and the probe
  // is then left with no handler, P01).
  const relaxedRules = await waitFor(() => rules(relaxed).length > 0 && rules(relaxed), 10_000, 'findings in relaxed/web.yaml');
  assert.deepEqual(relaxedRules, ['D01', 'P01']);
  assert.ok(probeLensDiagnostics(relaxed.uri).some((d) => /unknown field "grpc".*1\.23/.test(d.message)));
});

test("a folder's setting changed at run time re-checks that folder's documents, not the other's", async () => {
  const strict = await open('strict');
  const relaxed = await open('relaxed');
  const strictConfig = vscode.workspace.getConfiguration('probeLens', folder('strict').uri);
  const relaxedBefore = probeLensDiagnostics(relaxed.uri).map((d) => d.message);
  try {
    await strictConfig.update('disabledRules', ['P12'], vscode.ConfigurationTarget.WorkspaceFolder);
    await waitFor(() => rules(strict).length === 0, 10_000, 'P12 gone from strict/web.yaml');
    assert.deepEqual(
      probeLensDiagnostics(relaxed.uri).map((d) => d.message),
      relaxedBefore,
      'the other folder is untouched',
    );
  } finally {
    await strictConfig.update('disabledRules', undefined, vscode.ConfigurationTarget.WorkspaceFolder);
  }
  await waitFor(() => rules(strict).includes('P12'), 10_000, 'P12 back in strict/web.yaml');
});
