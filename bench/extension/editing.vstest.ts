/**
 * Editing benchmarks inside a real VS Code extension host (issue 4, "Performance"), run by
 * `npm run bench extension` through the extension-host harness. Each prints its figure beside a
 * baseline measured in the same host: what a naive extension would do (re-read the whole text).
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { checkText } from '../../src/core/check';
import type { ProbeLensApi } from '../../src/extension/extension';
import { test, waitFor } from '../../test/extension/harness';
import { probeLensExtension } from '../../test/extension/workbench';
import { generateManifest } from '../generate';
import { median } from '../stats';

const ACTIVATION_GOAL_MS = 100;
const DIAGNOSTICS_GOAL_MS = 50;
const LATENESS_GOAL_MS = 20;

function report(line: string): void {
  console.log(`  ${line}`);
}

async function openUntitled(content: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument({ language: 'yaml', content });
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

/** Replaces the digit at `line`:`character` with another one: every edit changes the text. */
async function typeOn(document: vscode.TextDocument, line: number, character: number): Promise<void> {
  const current = document.lineAt(line).text[character];
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(line, character, line, character + 1), current === '7' ? '8' : '7');
  assert.ok(await vscode.workspace.applyEdit(edit));
}

/** Lines holding `periodSeconds: N`, where changing N keeps the manifest valid. */
function periodLines(text: string): { line: number; character: number }[] {
  return text.split('\n').flatMap((l, line) => {
    const match = /periodSeconds: (\d)/.exec(l);
    return match ? [{ line, character: (match.index ?? 0) + 'periodSeconds: '.length }] : [];
  });
}

test('activation', async () => {
  const extension = probeLensExtension();
  assert.ok(!extension.isActive, 'the benchmark starts before anything activated the extension');
  const started = performance.now();
  await extension.activate();
  const activationMs = performance.now() - started;
  const probersLoaded = Object.keys(require.cache).filter((path) => /[\\/]dist[\\/]probers[\\/]/.test(path));
  report(`activation: ${activationMs.toFixed(1)} ms (goal ≤ ${ACTIVATION_GOAL_MS} ms) ${activationMs <= ACTIVATION_GOAL_MS ? 'PASS' : 'FAIL'}; prober modules loaded: ${probersLoaded.length}`);
  assert.deepEqual(probersLoaded, [], 'undici and grpc-js load with a session, not with the extension');
}, { timeoutMs: 60_000 });

/**
 * Edits a document and makes sure the editor has read that version: whoever reads it first (the
 * debounce, the code-lens request, or this call), `lastReadMs` is then that read's duration.
 */
async function editAndSettle(api: ProbeLensApi, document: vscode.TextDocument, at: { line: number; character: number }): Promise<void> {
  await typeOn(document, at.line, at.character);
  api.models.get(document);
}

/** Median time of a whole `checkText` of the text, warmed up first (it runs from a copy of core). */
function wholeCheckMs(text: string): number {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    checkText(text, { file: 'bench.yaml' });
    if (i >= 2) times.push(performance.now() - t);
  }
  return median(times);
}

test('diagnostics for a 2 000-line manifest after the edit settles', async () => {
  const manifest = generateManifest(2_000);
  const document = await openUntitled(manifest.text);
  const api = await probeLensExtension().activate();
  api.models.get(document);
  const lines = periodLines(manifest.text);
  const latencies: number[] = [];
  const shownAfter: number[] = [];
  for (let i = 0; i < 20; i++) {
    const at = lines[(i * 7) % lines.length] ?? { line: 0, character: 0 };
    const publishedBefore = api.diagnostics.lastPublishedAt;
    await typeOn(document, at.line, at.character);
    // The edit has settled when the debounce runs out and the read begins; Probe Lens's time is
    // the read and the publishing. In between, the findings wait for VS Code to take the code
    // lenses of the same read (so that both appear together): VS Code's time, reported apart.
    await waitFor(() => api.diagnostics.lastPublishedAt > publishedBefore, 5_000, 'the findings of the edit');
    latencies.push(api.models.lastReadMs + api.diagnostics.lastPublishMs);
    shownAfter.push(api.diagnostics.lastPublishedAt - api.models.lastReadStartedAt);
  }
  const ms = median(latencies);
  const whole = wholeCheckMs(document.getText());
  report(`diagnostics, ${manifest.lines} lines in ${manifest.documents} documents: ${ms.toFixed(1)} ms from the edit settling to the findings handed to VS Code, reading and publishing (median of 20 edits; goal ≤ ${DIAGNOSTICS_GOAL_MS} ms) ${ms <= DIAGNOSTICS_GOAL_MS ? 'PASS' : 'FAIL'}`);
  report(`  baseline: checking the whole text again: ${whole.toFixed(1)} ms`);
  report(`  with the wait for VS Code to take the code lenses of the same read: ${median(shownAfter).toFixed(1)} ms from the read starting to the findings handed over (median)`);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}, { timeoutMs: 120_000 });

test('a one-document edit in a 20-document file', async () => {
  const manifest = generateManifest(4_000);
  assert.ok(manifest.documents >= 20, `${manifest.documents} documents`);
  const document = await openUntitled(manifest.text);
  const api = await probeLensExtension().activate();
  api.models.get(document);
  const lines = periodLines(manifest.text);
  const reads: number[] = [];
  const chunks: number[] = [];
  for (let i = 0; i < 10; i++) {
    const before = api.models.chunksRead;
    await editAndSettle(api, document, lines[(i * 11) % lines.length] ?? { line: 0, character: 0 });
    chunks.push(api.models.chunksRead - before);
    reads.push(api.models.lastReadMs);
  }
  const ms = median(reads);
  const whole = wholeCheckMs(document.getText());
  report(`one-document edit, ${manifest.lines} lines in ${manifest.documents} documents: documents re-read per edit ${chunks.join(', ')}; ${ms.toFixed(1)} ms vs ${whole.toFixed(1)} ms for the whole file (${(ms / whole).toFixed(2)}×)`);
  assert.ok(chunks.every((n) => n === 1), 'one document re-read per edit');
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}, { timeoutMs: 60_000 });

/**
 * Probe starts are timers on the extension host's thread: whatever blocks it while someone types
 * makes them late by as much. Timers on a 1 s grid (the workers' fixed-rate ticks, W3) measure it
 * while someone types in a 10k-line manifest: bursts of 5 keystrokes 80 ms apart in one place,
 * then a pause long enough for the editor to re-read (the debounce); 20 bursts in 20 places.
 */
test('timer lateness while typing in a 10k-line manifest', async () => {
  const manifest = generateManifest(10_000);
  const document = await openUntitled(manifest.text);
  const api = await probeLensExtension().activate();
  api.models.get(document);
  const lines = periodLines(manifest.text);
  const typing = (onPause: () => void) =>
    timersWhile(async () => {
      for (let burst = 0; burst < 20; burst++) {
        const at = lines[(burst * 13) % lines.length] ?? { line: 0, character: 0 };
        for (let key = 0; key < 5; key++) {
          await typeOn(document, at.line, at.character);
          await sleep(80);
        }
        onPause();
        await sleep(500);
      }
    });
  const editor = await typing(() => undefined);
  const naive = await typing(() => checkText(document.getText(), { file: 'bench.yaml' }));
  report(`timer lateness while typing (${manifest.lines} lines, ${manifest.documents} documents, 20 bursts of 5 keystrokes, 500 timers at 1 s):`);
  report(`  Probe Lens: p50 ${editor.p50.toFixed(1)} ms, p99 ${editor.p99.toFixed(1)} ms (goal ≤ ${LATENESS_GOAL_MS} ms) ${editor.p99 <= LATENESS_GOAL_MS ? 'PASS' : 'FAIL'}`);
  report(`  baseline, re-checking the whole text at each pause: p50 ${naive.p50.toFixed(1)} ms, p99 ${naive.p99.toFixed(1)} ms`);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  await waitFor(() => document.isClosed, 5_000, 'the benchmark document to close');
}, { timeoutMs: 180_000 });

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function timersWhile(work: () => Promise<void>): Promise<{ p50: number; p99: number }> {
  const lateness: number[] = [];
  const timers: NodeJS.Timeout[] = [];
  const origin = performance.now();
  const TIMERS = 500;
  for (let i = 0; i < TIMERS; i++) {
    const phase = (i / TIMERS) * 1000;
    let tick = 0;
    const next = () => {
      tick++;
      const due = origin + phase + tick * 1000;
      timers[i] = setTimeout(() => {
        lateness.push(performance.now() - due);
        next();
      }, Math.max(0, due - performance.now()));
    };
    next();
  }
  try {
    await work();
  } finally {
    timers.forEach(clearTimeout);
  }
  const sorted = lateness.sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length * 0.5)] ?? NaN, p99: sorted[Math.floor(sorted.length * 0.99)] ?? NaN };
}
