import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './scratch';

/**
 * The chart `helm create NAME` writes — the most common chart shape there is — made by the real
 * helm in a scratch folder, then changed by `edit` (file relative to the chart → new text).
 */
export function helmCreateChart(helm: string, name: string, edits: Readonly<Record<string, (text: string) => string>> = {}): string {
  const dir = scratchDir('probe-lens-chart-');
  execFileSync(helm, ['create', name], { cwd: dir, stdio: 'ignore', env: { ...process.env, HELM_NO_PLUGINS: '1' } });
  const root = join(dir, name);
  for (const [file, edit] of Object.entries(edits)) {
    const path = join(root, file);
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      // A new file.
    }
    writeFileSync(path, edit(text));
  }
  return root;
}

/** Replaces `from` with `to` once, failing loudly when helm create's text changed under the test. */
export function replaceOnce(from: string, to: string): (text: string) => string {
  return (text) => {
    if (!text.includes(from)) throw new Error(`the chart no longer contains ${JSON.stringify(from)}`);
    return text.replace(from, to);
  };
}

/** 1-based line of the first line containing `needle` (as a CLI prints it). */
export function lineOf(text: string, needle: string, after = 0): number {
  const lines = text.split('\n');
  for (let i = after; i < lines.length; i++) if ((lines[i] as string).includes(needle)) return i + 1;
  throw new Error(`no line contains ${JSON.stringify(needle)}`);
}
