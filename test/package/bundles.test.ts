import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../helpers/scratch';

const built = existsSync('dist/cli.js') && existsSync('dist/probers/http.js');

// undici alone costs ~150 ms to load: `check` and an idle extension must never pay for it.
test('the CLI and extension bundles leave the probers (undici, grpc-js) to dist/probers/', { skip: !built && 'build first' }, () => {
  for (const bundle of ['dist/cli.js', 'dist/extension.js']) {
    // Comments dropped first: an unminified (development) build keeps ours, which name undici to
    // say where it is loaded; bundled undici or grpc-js code still names itself in its strings.
    const text = readFileSync(bundle, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    assert.ok(!/undici|grpc-js|proto-loader/.test(text), `${bundle} carries prober code`);
  }
  for (const prober of ['http', 'tcp', 'grpc', 'exec']) assert.ok(existsSync(`dist/probers/${prober}.js`), prober);
});

test('probe-lens check loads no prober module', { skip: !built && 'build first' }, () => {
  const hook = join(scratchDir('probe-lens-hook-'), 'hook.js');
  writeFileSync(
    hook,
    `const Module = require('module'); const load = Module._load; const seen = [];
     Module._load = function (request, ...rest) { seen.push(request); return load.call(this, request, ...rest); };
     process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(seen) + '\\n'));`,
  );
  const result = spawnSync(process.execPath, ['--require', hook, 'dist/cli.js', 'check', 'examples/web-deployment.yaml'], { encoding: 'utf8' });
  const loaded = JSON.parse(/LOADED (.*)/.exec(result.stderr)?.[1] ?? '[]') as string[];
  assert.ok(loaded.length > 0, 'the hook saw the requires');
  assert.deepEqual(loaded.filter((r) => /probers|undici|grpc/.test(r)), []);
});
