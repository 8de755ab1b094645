import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { ManifestLimits } from '../../src/core/manifest';
import { RULE_INFO } from '../../src/core/rules/registry';
import type { Finding } from '../../src/core/rules/types';

const SEVERITIES = new Set(['error', 'warning', 'info']);

/**
 * What every finding of any text must satisfy: a registered rule id, a severity, a non-empty
 * message, and a range that runs forwards and lies inside the text. Lines break where
 * readYamlFile breaks them, as editors do: at `\n`, `\r\n` and a lone `\r` (the `\r` of a
 * `\r\n` stays on its line, so a position on it is still inside the line).
 *
 * Tolerated: a position one character past the end of the *last* line. `yaml` reports an error at
 * the end of the input (`a: [`, an unclosed quote) as the one-character range just past it, and
 * readYamlFile passes it on unclamped (editors clamp it; reported, not fixed here).
 */
export function assertFindingsWellFormed(text: string, findings: readonly Finding[], file = 'test.yaml'): void {
  const lineLengths = text.split(/\n|\r(?!\n)/).map((line) => line.length);
  const describe = (f: Finding) => `${f.rule} doc ${f.doc} ${JSON.stringify(f.range)} ${JSON.stringify(f.message.slice(0, 200))}`;
  for (const f of findings) {
    assert.ok(RULE_INFO.has(f.rule), `unknown rule id: ${describe(f)}`);
    assert.ok(SEVERITIES.has(f.severity), `bad severity ${String(f.severity)}: ${describe(f)}`);
    const rule = RULE_INFO.get(f.rule);
    assert.ok(f.severity === rule?.severity || f.severity === rule?.alsoReports?.severity, `${f.rule} reported as ${f.severity}, which its registry entry does not list: ${describe(f)}`);
    // A rule that throws is caught by the runner and reported as this message: still a bug.
    assert.doesNotMatch(f.message, /internal error in rule/, `a rule threw: ${describe(f)}`);
    assert.equal(typeof f.message, 'string');
    assert.ok(f.message.length > 0, `empty message: ${describe(f)}`);
    assert.equal(f.file, file);
    assert.equal(typeof f.path, 'string');
    assert.ok(Number.isInteger(f.doc) && f.doc >= 0, `bad doc index: ${describe(f)}`);
    const { start, end } = f.range;
    for (const p of [start, end]) {
      assert.ok(Number.isInteger(p.line) && Number.isInteger(p.character), `non-integer position: ${describe(f)}`);
      assert.ok(p.line >= 0 && p.character >= 0, `negative position: ${describe(f)}`);
      assert.ok(p.line < lineLengths.length, `line ${p.line} past the text's ${lineLengths.length} lines: ${describe(f)}`);
      const slack = p.line === lineLengths.length - 1 ? 1 : 0;
      assert.ok(p.character <= (lineLengths[p.line] ?? 0) + slack, `character ${p.character} past the end of line ${p.line} (${lineLengths[p.line]} chars): ${describe(f)}`);
    }
    assert.ok(start.line < end.line || (start.line === end.line && start.character <= end.character), `range ends before it starts: ${describe(f)}`);
  }
}

/** Findings of a document a limit cut short are that limit (Y02) and YAML findings only. */
export function assertLimitHidesTheRest(findings: readonly Finding[]): void {
  const cut = new Set(findings.filter((f) => f.rule === 'Y02').map((f) => f.doc));
  for (const f of findings) {
    if (cut.has(f.doc)) assert.ok(f.rule.startsWith('Y'), `${f.rule} reported in document ${f.doc}, which a Y02 limit cut short`);
  }
}

export interface ChildCheck {
  /** Exit status; `null` when killed by a signal (a V8 fatal error aborts with SIGABRT). */
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  /** Findings of the last run, when the child got that far. */
  readonly findings?: Finding[];
  /** Wall-clock milliseconds of each run. */
  readonly runMs?: number[];
  /** The child's heapUsed after the last run, in MB. */
  readonly heapMb?: number;
}

/**
 * Checks `text` in a fresh node process, `repeat` times: what must not crash the test runner
 * (a V8 fatal error cannot be caught) and what must fit in `maxOldSpaceMb` of heap (node aborts
 * if it does not, so this bounds the peak, not just what is left after a GC).
 */
export function checkInChild(text: string, options: { repeat?: number; maxOldSpaceMb?: number; limits?: ManifestLimits; timeoutMs?: number } = {}): ChildCheck {
  const checkModule = join(__dirname, '..', '..', 'src', 'core', 'check.js');
  const script = `
    const { checkText } = require(${JSON.stringify(checkModule)});
    const text = require('node:fs').readFileSync(0, 'utf8');
    const limits = ${JSON.stringify(options.limits ?? null)};
    const runMs = [];
    let findings = [];
    for (let i = 0; i < ${options.repeat ?? 1}; i++) {
      const start = performance.now();
      findings = checkText(text, { file: 'test.yaml', ...(limits ? { limits } : {}) });
      runMs.push(performance.now() - start);
    }
    process.stdout.write(JSON.stringify({ findings, runMs, heapMb: process.memoryUsage().heapUsed / 1048576 }));
  `;
  const args = [...(options.maxOldSpaceMb ? [`--max-old-space-size=${options.maxOldSpaceMb}`] : []), '-e', script];
  const child = spawnSync(process.execPath, args, { input: text, encoding: 'utf8', timeout: options.timeoutMs ?? 60_000, maxBuffer: 256 * 1024 * 1024 });
  const base = { status: child.status, signal: child.signal, stderr: child.stderr ?? '' };
  if (child.status !== 0) return base;
  const parsed = JSON.parse(child.stdout) as { findings: Finding[]; runMs: number[]; heapMb: number };
  return { ...base, ...parsed };
}

/** A small deterministic generator, so "random" inputs are the same on every run. */
export function seededBytes(seed: number, length: number): Uint8Array {
  let state = seed >>> 0;
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

