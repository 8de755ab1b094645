/**
 * The extensionTestsPath module (compiled to out/test/extension/runner.js): VS Code's extension
 * host requires it and awaits run(); resolving means the run passed. It loads every
 * *.vstest.js in suite/ — not *.test.js, which `npm test` hands to `node --test`, where
 * `require('vscode')` cannot resolve — then runs the tests they registered.
 *
 * PROBE_LENS_VSTEST_GREP (substrings of the test name, separated by `|`) runs only the matching tests, and
 * PROBE_LENS_VSTEST_DIR loads the files of another folder (the extension-host benchmarks in
 * out/bench/extension); the environment reaches the extension host through code-server.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadingSuite, registeredTests, withTimeout } from './harness';

export const SUITE_SUFFIX = '.vstest.js';

export async function run(): Promise<void> {
  const suiteDir = process.env['PROBE_LENS_VSTEST_DIR'] ?? join(__dirname, 'suite');
  const files = readdirSync(suiteDir)
    .filter((name) => name.endsWith(SUITE_SUFFIX))
    .sort();
  if (files.length === 0) throw new Error(`no *${SUITE_SUFFIX} files in ${suiteDir}`);
  for (const file of files) {
    loadingSuite(file);
    require(join(suiteDir, file));
  }

  const grep = process.env['PROBE_LENS_VSTEST_GREP'];
  const wanted = grep?.split('|').filter((part) => part !== '') ?? [];
  const tests = registeredTests().filter((t) => wanted.length === 0 || wanted.some((part) => t.name.includes(part)));
  if (tests.length === 0) throw new Error(grep ? `no test name contains "${grep}"` : 'the suite files registered no tests');

  let passed = 0;
  let failed = 0;
  for (const t of tests) {
    const started = Date.now();
    try {
      await withTimeout(Promise.resolve().then(t.fn), t.timeoutMs, `"${t.name}"`);
      passed++;
      console.log(`  ✔ ${t.file} › ${t.name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed++;
      console.log(`  ✘ ${t.file} › ${t.name} (${Date.now() - started} ms)\n    ${indent(error instanceof Error ? (error.stack ?? error.message) : String(error))}`);
    }
  }
  // The closing line CI looks for.
  console.log(`${passed} passed, ${failed} failed`);
  if (failed > 0) throw new Error(`${failed} extension-host test(s) failed`);
}

function indent(text: string): string {
  return text.split('\n').join('\n    ');
}
