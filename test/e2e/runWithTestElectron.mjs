// The entry point of the extension-host tests: @vscode/test-electron's runTests, as any VS Code
// extension would call it, except that vscodeExecutablePath is the offline harness
// (runExtensionTests.mjs) instead of a VS Code download, which cannot work without internet.
import { runTests } from '@vscode/test-electron';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_WORKSPACE, PROJECT_ROOT } from './lib.mjs';

const harness = join(PROJECT_ROOT, 'test/e2e/runExtensionTests.mjs');
try {
  // runTests spawns the executable directly, so it needs its executable bit (git keeps it).
  accessSync(harness, constants.X_OK);
} catch {
  console.error(`${harness} is not executable: chmod +x it`);
  process.exit(2);
}

try {
  await runTests({
    vscodeExecutablePath: harness,
    extensionDevelopmentPath: PROJECT_ROOT,
    extensionTestsPath: join(PROJECT_ROOT, 'out/test/extension/runner.js'),
    launchArgs: [FIXTURE_WORKSPACE],
  });
  // Settings per folder need a multi-root workspace: its own window, its own suite.
  await runTests({
    vscodeExecutablePath: harness,
    extensionDevelopmentPath: PROJECT_ROOT,
    extensionTestsPath: join(PROJECT_ROOT, 'out/test/extension/runner.js'),
    extensionTestsEnv: { PROBE_LENS_VSTEST_DIR: join(PROJECT_ROOT, 'out/test/extension/multiRoot') },
    launchArgs: [join(PROJECT_ROOT, 'test/e2e/fixtures/multi-root')],
  });
} catch (error) {
  // runTests has already printed the harness's output and "Exit code: N".
  console.error(`extension-host tests failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
