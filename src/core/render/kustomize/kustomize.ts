import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { runBounded } from '../../base/boundedProcess';
import { DEFAULT_RENDER_BOUNDS, type RenderBounds, type RenderFailure, type RenderOutcome, rendererMissing } from '../failure';
import { kustomizationFile } from '../renderSource';

/** Which program builds overlays, and how the user names another (for the sentence when it cannot run). */
export interface KustomizeConfig {
  /** `kubectl` (its `kubectl kustomize`, looked up on PATH) or a path to kubectl or to a kustomize binary. */
  readonly path: string;
  /** What the user does to name another: `pass --kustomize PATH`, `set probeLens.kustomize.path`. */
  readonly namedBy: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Builds an overlay the way the user's cluster tooling does: `kubectl kustomize DIR`, or
 * `kustomize build DIR` when the program named is kustomize itself. No plugin flags
 * (`--enable-alpha-plugins`, `--enable-exec`, `--enable-helm`), so nothing but kustomize runs;
 * the graph was read first (overlayGraph.ts), so no remote base is named, and the environment
 * points every proxy at a closed port, so a fetch kustomize might still try fails at once
 * instead of reaching the network.
 */
export class Kustomize {
  constructor(readonly config: KustomizeConfig) {}

  /** kubectl's subcommand, or kustomize's own. */
  args(dir: string): string[] {
    return /kubectl/i.test(basename(this.config.path)) ? ['kustomize', dir] : ['build', dir];
  }

  async build(dir: string, bounds: RenderBounds = DEFAULT_RENDER_BOUNDS, signal?: AbortSignal): Promise<RenderOutcome<string>> {
    const result = await runBounded(this.config.path, this.args(dir), {
      timeoutMs: bounds.timeoutMs,
      maxOutputBytes: bounds.maxOutputBytes + 1,
      env: offlineEnv(this.config.env ?? process.env),
      ...(signal ? { signal } : {}),
    });
    const at = { file: kustomizationFile(dir) ?? dir, line: 0 };
    switch (result.kind) {
      case 'notStarted':
        return { ok: false, failure: this.missing(result.error) };
      case 'aborted':
        return { ok: false, failure: { kind: 'timed-out', message: 'the kustomize build was cancelled' } };
      case 'timedOut':
        return { ok: false, failure: { kind: 'timed-out', message: `the kustomize build did not finish within ${bounds.timeoutMs / 1000} s`, ...at } };
      case 'exited': {
        if (result.exitCode !== 0) return { ok: false, failure: kustomizeFailure(result.stderr.toString('utf8') || result.stderrTail, this.config.path, dir) };
        if (result.stdout.length > bounds.maxOutputBytes)
          return { ok: false, failure: { kind: 'too-large', message: `the kustomize build printed more than ${Math.round(bounds.maxOutputBytes / 1024 / 1024)} MB: too large to check`, ...at } };
        return { ok: true, value: result.stdout.toString('utf8') };
      }
    }
  }

  private missing(error: unknown): RenderFailure {
    const program = /kustomize$/i.test(basename(this.config.path)) ? 'kustomize' : 'kubectl';
    return rendererMissing(program, this.config.path, error, `overlays are not built; install kubectl (or kustomize), or ${this.config.namedBy}`);
  }
}

/** A closed port (discard, 9) for every proxy: whatever kustomize might fetch fails fast, offline. */
export function offlineEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const closed = 'http://127.0.0.1:9';
  return { ...env, HTTP_PROXY: closed, HTTPS_PROXY: closed, ALL_PROXY: closed, http_proxy: closed, https_proxy: closed, all_proxy: closed, NO_PROXY: '', no_proxy: '', GIT_TERMINAL_PROMPT: '0' };
}

/**
 * kustomize's last word, shortened to its cause. It nests each layer's error in the next
 * ("accumulating resources: accumulation err='…': …"); the graph read first catches what it
 * could place (missing bases, remote ones, cycles), so what reaches here is a file's content:
 *   error: invalid Kustomization: json: unknown field "foo"
 *   error: trouble configuring builtin PatchTransformer with config: `…`: failed to get the patch file …
 *   error: map[string]interface {}(nil): yaml: unmarshal errors: …
 */
export function kustomizeFailure(stderr: string, program: string, dir: string): RenderFailure {
  const text = stderr.replace(/\r/g, '').trim();
  const first = /^(?:error|Error): ([\s\S]*)$/m.exec(text)?.[1] ?? text;
  const oneLine = first.replace(/`[\s\S]*?`/g, '…').replace(/\s*\n\s*/g, ' ').trim();
  const name = /kubectl/i.test(basename(program)) ? 'kubectl kustomize' : 'kustomize build';
  const file = kustomizationFile(dir);
  return { kind: 'render-error', message: `${name} failed: ${oneLine || 'no message (exit status non-zero)'}`, file: file ?? dir, line: file ? unknownFieldLine(file, oneLine) : 0 };
}

/** `invalid Kustomization: json: unknown field "namePrefx"`: the line of that key in the overlay's kustomization. */
function unknownFieldLine(file: string, message: string): number {
  const field = /unknown field "([^"]+)"/.exec(message)?.[1];
  if (!field) return 0;
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  const line = text.split('\n').findIndex((l) => l.startsWith(`${field}:`));
  return Math.max(line, 0);
}
