// The "Typing" section of the UI test: a 2 000-line manifest edited key by key, as a user types.
// What is asserted is what a user sees: the code lens rows stay where they are (the text under
// them does not jump) while a key is half typed, Problems keeps every unrelated finding, and a
// lens and the finding of the same read appear together.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from './workbench.mjs';

export const BIG_MANIFEST = 'typing/big.yaml';
const DOCUMENTS = 40;
/** The document whose probes are edited, in the middle of the file. */
const EDITED = 20;

/** One Deployment of 50 lines; a few carry findings, so that Problems has something to lose. */
function deployment(i) {
  const port = i === EDITED ? '"8080"' : 'http'; // P06 (with L04 folded into it)
  const success = i === 5 ? '\n            successThreshold: 2' : '\n            # successThreshold: default'; // P12
  const timeout = i === 30 ? 8 : 4; // L12 once periodSeconds (5) is below it
  const period = i === 30 ? 5 : 10;
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-${i}
  labels: {app: shop-${i}, tier: web}
spec:
  replicas: 2
  selector:
    matchLabels: {app: shop-${i}}
  template:
    metadata:
      labels: {app: shop-${i}}
    spec:
      terminationGracePeriodSeconds: 30
      containers:
        - name: web
          image: example/shop:1.${i}
          ports:
            - name: http
              containerPort: 8080
          env:
            - {name: LOG_LEVEL, value: info}
            - {name: CACHE_SIZE, value: "128"}
            - {name: REGION, value: eu-west-1}
          resources:
            requests: {cpu: 100m, memory: 128Mi}
            limits: {memory: 256Mi}
          livenessProbe:
            httpGet: {path: /healthz, port: http}
            timeoutSeconds: ${timeout}
            periodSeconds: ${period}${success}
          readinessProbe:
            httpGet: {path: /ready, port: ${port}}
            periodSeconds: 5
          volumeMounts:
            - {name: cache, mountPath: /var/cache/shop}
            - {name: config, mountPath: /etc/shop}
      volumes:
        - name: cache
          emptyDir: {}
        - name: config
          configMap: {name: shop-${i}}
      # padding, as real manifests have: affinity, tolerations, …
      tolerations:
        - {key: dedicated, operator: Equal, value: web, effect: NoSchedule}
      nodeSelector: {kubernetes.io/os: linux}
      # one
      # two
`;
}

/** 1-based line of the first line matching `pattern` at or after the document's start. */
function lineOf(text, documentIndex, pattern) {
  const lines = text.split('\n');
  let seen = -1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '---') seen++;
    if (seen >= documentIndex - 1 && pattern.test(lines[i])) return i + 1;
  }
  throw new Error(`no ${pattern} in document ${documentIndex}`);
}

export async function typingSection({ page, workbench, folder, section, step, options }) {
  await section('Typing');
  const text = `${Array.from({ length: DOCUMENTS }, (_, i) => deployment(i)).join('---\n')}`;
  const editor = workbench.activeEditor;
  const lensTops = () =>
    editor.locator('.codelens-decoration').evaluateAll((nodes) =>
      nodes.filter((node) => getComputedStyle(node).visibility !== 'hidden').map((node) => Math.round(node.getBoundingClientRect().top)).sort((a, b) => a - b),
    );
  /** The Problems panel's probe-lens rows of the big manifest, as `rule line:column`. */
  const problemRows = async () =>
    (await page.locator('.markers-panel .monaco-list-row').allInnerTexts())
      .map((row) => /probe-lens\W*([A-Z]\d\d)\W*\[Ln (\d+), Col (\d+)\]/.exec(row))
      .filter((match) => match !== null)
      .map(([, rule, line, column]) => `${rule} ${line}:${column}`);
  let baselineRows = [];

  await step(`a ${text.split('\n').length}-line manifest of ${DOCUMENTS} Deployments: its lenses and findings`, async () => {
    mkdirSync(join(folder, 'typing'), { recursive: true });
    writeFileSync(join(folder, BIG_MANIFEST), text);
    await workbench.runCommand('View: Close All Editors');
    await workbench.openFile(BIG_MANIFEST);
    // The edited probe near the top of the view, the Problems panel open below.
    await workbench.goTo(lineOf(text, EDITED, /periodSeconds: 10/), 11);
    await page.keyboard.press('Control+Shift+M');
    await waitUntil(async () => (await problemRows()).some((row) => row.startsWith('P06')), 'the P06 of the edited document in Problems', 30_000);
    // Back to the editor, as a user typing would be: Code cancels a lens request pending when its
    // editor loses focus (to the Problems panel here) and asks again only once it has it back.
    await page.keyboard.press('Control+1'); // View: Focus First Editor Group
    // The liveness lens above the line to be typed, the readiness lens below it.
    await workbench.waitForCodeLenses((seen) => seen.length >= 2, 'the probe lenses of the edited document');
    await workbench.codeLensesSettled();
  });

  await step('typing a new key letter by letter (no colon yet): the lens rows never move, Problems keeps every finding', async () => {
    // A new line under `httpGet`, then settle: the lines below move down once, as text does.
    await workbench.goTo(lineOf(text, EDITED, /httpGet: \{path: \/healthz/), 13);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await workbench.codeLensesSettled();
    await waitUntil(async () => (baselineRows = await problemRows()).some((row) => row.startsWith('P06')), 'Problems after the new line');
    const tops = await lensTops();
    // Every frame from now on: where the lens rows are.
    await editor.evaluate((root) => {
      window.__lensFrames = [];
      const record = () => {
        const shown = [...root.querySelectorAll('.codelens-decoration')].filter((node) => getComputedStyle(node).visibility !== 'hidden');
        window.__lensFrames.push(shown.map((node) => Math.round(node.getBoundingClientRect().top)).sort((a, b) => a - b).join(','));
        window.__lensFrame = requestAnimationFrame(record);
      };
      record();
    });
    const missing = [];
    const sample = async (when) => {
      const rows = await problemRows();
      const lost = baselineRows.filter((row) => !rows.includes(row));
      if (lost.length > 0) missing.push(`${when}: ${lost.join(', ')} (rows: ${rows.join(', ')})`);
    };
    for (const key of 'failureThreshold') {
      await page.keyboard.type(key);
      await page.waitForTimeout(120);
      await sample(`after "${key}"`);
    }
    // Half typed for a while: the debounced read and the lens request both happen in this time.
    await page.waitForTimeout(1_200);
    await sample('with the key half typed');
    assert.ok((await problemRows()).some((row) => row.startsWith('Y01')), 'the syntax error is in Problems meanwhile');
    for (const key of ': 5') {
      await page.keyboard.type(key);
      await page.waitForTimeout(120);
    }
    await page.waitForTimeout(1_200);
    await sample('once the line parses again');
    const frames = await editor.evaluate(() => {
      cancelAnimationFrame(window.__lensFrame);
      return window.__lensFrames;
    });
    const moved = [...new Set(frames)].filter((frame) => frame !== tops.join(','));
    if (options.verbose) console.log(`    ${frames.length} frames, lens rows at ${tops.join(',')}`);
    assert.deepEqual(moved, [], `the lens rows stayed at ${tops.join(',')} in all ${frames.length} frames`);
    assert.deepEqual(missing, [], 'Problems never lost a finding while the key was typed');
    assert.ok(!(await problemRows()).some((row) => row.startsWith('Y01')), 'the syntax error is gone once the line parses');
  });

  await step('a lens and the finding of the same read appear together (periodSeconds 10 → 3 under timeoutSeconds 4)', async () => {
    // One line was typed above it; "10" starts at column 28.
    await workbench.goTo(lineOf(text, EDITED, /periodSeconds: 10/) + 1, 28);
    await page.keyboard.press('Shift+End');
    assert.equal(await editor.locator('.squiggly-warning').count(), 0, 'no warning in view before the edit');
    await editor.evaluate((root) => {
      const lensText = () => [...root.querySelectorAll('.codelens-decoration')].map((node) => node.textContent).join('|');
      const before = lensText();
      const started = performance.now();
      window.__appeared = {};
      const watch = () => {
        if (window.__appeared.lens === undefined && lensText() !== before) window.__appeared.lens = performance.now() - started;
        if (window.__appeared.finding === undefined && root.querySelector('.squiggly-warning')) window.__appeared.finding = performance.now() - started;
        if (window.__appeared.lens === undefined || window.__appeared.finding === undefined) requestAnimationFrame(watch);
      };
      watch();
    });
    await page.keyboard.type('3');
    const appeared = await waitUntil(() => editor.evaluate(() => window.__appeared.lens !== undefined && window.__appeared.finding !== undefined && window.__appeared), 'the new lens title and the L12 squiggle', 10_000);
    const apart = Math.abs(appeared.lens - appeared.finding);
    console.log(`    lens after ${appeared.lens.toFixed(0)} ms, finding after ${appeared.finding.toFixed(0)} ms: ${apart.toFixed(0)} ms apart`);
    assert.ok(apart <= 250, `they appeared ${apart.toFixed(0)} ms apart (lens ${appeared.lens.toFixed(0)} ms, finding ${appeared.finding.toFixed(0)} ms)`);
    // Leave the file as it was, so that closing it asks nothing.
    await workbench.runCommand('File: Revert File');
    await workbench.closePanel();
    await workbench.runCommand('View: Close All Editors');
  });
}
