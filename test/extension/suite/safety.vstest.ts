/**
 * Safety inside a real VS Code: nothing runs when a manifest is merely opened; exec probes run
 * only after consent (asked once per manifest and set of commands, remembered per workspace);
 * `probeLens.exec.probes: never`; and the untrusted-workspace refusal. The consent question is
 * answered through the test seam `execConsent.overridePrompt` (a modal cannot be clicked from
 * the extension host). Workspace trust cannot be toggled inside one code-server run (the harness
 * starts it with --disable-workspace-trust), so the refusal is tested on the guard itself, with
 * the trust flag injected: `probingRefusal(false)` and `launcher.startLocal({trusted: false})`.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExecCommand } from '../../../src/extension/safety/execCommands';
import { probingRefusal } from '../../../src/extension/safety/trust';
import type { LocalStarted } from '../../../src/extension/sessions/launcher';
import type { ProbingApi } from '../../../src/extension/registerProbing';
import { sleep, test, waitFor } from '../harness';
import { openFixture } from '../workbench';
import { probingApi, startHealthServer, withSetting } from '../probing';

const MARKER_VARIABLE = 'PROBE_LENS_TEST_MARKER';

/** A fresh path the exec probe of exec.yaml would create (`touch "$PROBE_LENS_TEST_MARKER"`). */
function freshMarker(): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-exec-'));
  const path = join(dir, 'ran');
  process.env[MARKER_VARIABLE] = path;
  return {
    path,
    cleanup: () => {
      delete process.env[MARKER_VARIABLE];
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Answers the consent question with `answer`, recording what was asked. */
function answering(probing: ProbingApi, answer: boolean): { asked: (readonly ExecCommand[])[]; restore: vscode.Disposable } {
  const asked: (readonly ExecCommand[])[] = [];
  const restore = probing.execConsent.overridePrompt((_manifest, commands) => {
    asked.push(commands);
    return Promise.resolve(answer);
  });
  return { asked, restore };
}

/** Waits for the exec probe's first attempt, and returns its error (if it was refused). */
async function firstExecAttempt(started: LocalStarted): Promise<{ error: string | undefined }> {
  const attempt = await waitFor(() => started.session.lastAttempt('worker', 'worker', 'readiness'), 10_000, 'the exec probe\'s first attempt');
  return { error: attempt.error };
}

const EXEC_ARGV = ['sh', '-c', 'touch "$PROBE_LENS_TEST_MARKER"'];

test('opening manifests starts nothing: no session, no request, no exec', async () => {
  const probing = await probingApi();
  const server = await startHealthServer();
  const marker = freshMarker();
  const restore = await withSetting('local.portMap', { '8080': server.port }, vscode.ConfigurationTarget.Workspace);
  try {
    await openFixture('probing/web.yaml');
    await openFixture('probing/exec.yaml');
    await sleep(2_500); // well past several probe periods (1 s) and the debounce
    assert.equal(probing.sessions.all.length, 0);
    assert.equal(server.requests, 0);
    assert.equal(existsSync(marker.path), false);
  } finally {
    await restore();
    await server.close();
    marker.cleanup();
  }
});

test('exec consent refused: the probe is reported as not allowed and no process runs', async () => {
  const probing = await probingApi();
  const marker = freshMarker();
  const consent = answering(probing, false);
  try {
    const document = await openFixture('probing/exec.yaml');
    await probing.execConsent.forget(document.uri);
    const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing', { uri: document.uri });
    assert.ok(started);
    assert.equal(started.exec, 'refused');
    assert.equal(consent.asked.length, 1, 'asked once');
    assert.deepEqual(consent.asked[0]?.map((c) => [c.pod, c.container, c.probe, c.argv]), [['worker', 'worker', 'readiness', EXEC_ARGV]]);
    const { error } = await firstExecAttempt(started);
    assert.match(error ?? '', /exec probes run commands on this machine and were not allowed/);
    await sleep(1_500);
    assert.equal(existsSync(marker.path), false, 'the command never ran');
    // The refusal surfaces as a live diagnostic, the kubelet's "errored" text.
    await waitFor(() => probing.liveDiagnostics.diagnostics(document.uri).some((d) => d.message.startsWith('Readiness probe errored and resulted in unknown state: exec probes run commands')), 5_000, 'the errored diagnostic');
    started.session.dispose();
  } finally {
    consent.restore.dispose();
    probing.sessions.stopAll();
    marker.cleanup();
  }
}, { timeoutMs: 30_000 });

test('exec consent given: the command runs; remembered for the workspace; an edited command asks again', async () => {
  const probing = await probingApi();
  const marker = freshMarker();
  const consent = answering(probing, true);
  try {
    const document = await openFixture('probing/exec.yaml');
    await probing.execConsent.forget(document.uri);
    const first = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing', { uri: document.uri });
    assert.equal(first?.exec, 'allowed');
    await waitFor(() => existsSync(marker.path), 10_000, 'the exec probe to run its command');
    first?.session.dispose();

    // Remembered: a second start does not ask.
    const second = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing', { uri: document.uri });
    assert.equal(second?.exec, 'allowed');
    assert.equal(consent.asked.length, 1, 'not asked again');

    // An edited command is a new question, and does not run until answered.
    const refuseNext = probing.execConsent.overridePrompt((_m, commands) => {
      consent.asked.push(commands);
      return Promise.resolve(false);
    });
    try {
      const at = document.getText().indexOf('touch');
      const edit = new vscode.WorkspaceEdit();
      edit.insert(document.uri, document.positionAt(at), 'true; ');
      assert.ok(await vscode.workspace.applyEdit(edit));
      await waitFor(() => consent.asked.length === 2, 10_000, 'the edited command to be asked about');
      assert.deepEqual(consent.asked[1]?.map((c) => c.argv), [['sh', '-c', 'true; touch "$PROBE_LENS_TEST_MARKER"']]);
      // Once the edited probe's worker has had a (refused) attempt, the old command's worker is gone (W14).
      await waitFor(() => second?.session.lastAttempt('worker', 'worker', 'readiness')?.error !== undefined, 10_000, 'the edited probe to be refused');
      rmSync(marker.path, { force: true });
      await sleep(2_000);
      assert.equal(existsSync(marker.path), false, 'the edited command never ran');
    } finally {
      refuseNext.dispose();
      await vscode.window.showTextDocument(document, { preview: false });
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    second?.session.dispose();

    // Forgotten: the next start asks again.
    assert.equal(await vscode.commands.executeCommand('probeLens.forgetExecConsent', document.uri), 1);
    const third = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing', { uri: document.uri });
    assert.equal(third?.exec, 'allowed');
    assert.equal(consent.asked.length, 3, 'asked again after forgetting');
    third?.session.dispose();
  } finally {
    consent.restore.dispose();
    probing.sessions.stopAll();
    await probing.execConsent.forget();
    marker.cleanup();
  }
}, { timeoutMs: 60_000 });

test('probeLens.exec.probes never: exec probes are not run and nobody is asked', async () => {
  const probing = await probingApi();
  const marker = freshMarker();
  const consent = answering(probing, true);
  // A machine-scoped setting: user settings (the harness's throw-away profile).
  const restore = await withSetting('exec.probes', 'never', vscode.ConfigurationTarget.Global);
  try {
    const document = await openFixture('probing/exec.yaml');
    const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing', { uri: document.uri });
    assert.ok(started);
    assert.equal(started.exec, 'disabled');
    assert.equal(consent.asked.length, 0);
    const { error } = await firstExecAttempt(started);
    assert.match(error ?? '', /were not allowed/);
    await sleep(1_500);
    assert.equal(existsSync(marker.path), false);
    started.session.dispose();
  } finally {
    consent.restore.dispose();
    probing.sessions.stopAll();
    await restore();
    marker.cleanup();
  }
}, { timeoutMs: 30_000 });

test('untrusted workspace (trust injected): probing and one-off probes are refused before anything runs', async () => {
  const probing = await probingApi();
  const server = await startHealthServer();
  const restore = await withSetting('local.portMap', { '8080': server.port }, vscode.ConfigurationTarget.Workspace);
  try {
    const document = await openFixture('probing/web.yaml');
    const started = await probing.launcher.startLocal({ uri: document.uri, trusted: false });
    assert.equal(started.ok, false);
    assert.match(started.ok ? '' : started.reason, /only in a trusted workspace/);
    assert.equal(started.ok ? '' : started.reason, probingRefusal(false));
    const once = await probing.launcher.runOnce({ uri: document.uri, pod: 'web', container: 'web', probe: 'readiness', trusted: false });
    assert.equal(once.ok, false);
    assert.equal(once.ok ? '' : once.reason, probingRefusal(false), 'the one-off probe is refused for trust, not for another reason');
    await sleep(500);
    assert.equal(probing.sessions.all.length, 0);
    assert.equal(server.requests, 0);
  } finally {
    await restore();
    await server.close();
  }
});
