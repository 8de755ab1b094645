import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { probeExec, timeoutMessage } from '../../../src/core/probers/exec';
import { goQuote } from '../../../src/core/probers/goFormat';
import type { AttemptOptions, ProbeOutcome } from '../../../src/core/probers/types';
import { scratchDir } from '../../helpers/scratch';

const NODE = process.execPath;
/** The bound the prober promises: the deadline plus 250 ms, whatever the command does. */
const SLACK_MS = 250;

let dir = '';
/** What this test process holds anyway (its own stdout/stderr pipes under `node --test`). */
let baseline: string[] = [];
before(() => {
  dir = scratchDir('probe-lens-exec-');
  void process.stdout;
  void process.stderr;
  baseline = leftovers();
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

let fileCounter = 0;
function pidFile(): string {
  return join(dir, `pid-${++fileCounter}`);
}

async function timed(command: readonly string[], options: AttemptOptions, extra: { env?: Record<string, string>; cwd?: string } = {}): Promise<{ outcome: ProbeOutcome; ms: number }> {
  const started = performance.now();
  const outcome = await probeExec({ command, ...extra }, options);
  return { outcome, ms: performance.now() - started };
}

/** Alive = `kill(pid, 0)` succeeds and it is not a zombie waiting for init to reap it. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** SIGKILL is delivered asynchronously to the other members of the group: allow a moment. */
async function assertGone(pid: number, what: string): Promise<void> {
  for (let i = 0; i < 20 && isAlive(pid); i++) await delay(10);
  assert.equal(isAlive(pid), false, `${what} (pid ${pid}) is still running`);
}

function readPid(file: string): number {
  const pid = Number(readFileSync(file, 'utf8').trim());
  assert.ok(Number.isInteger(pid) && pid > 1, `no pid in ${file}`);
  return pid;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resources a finished attempt must not leave behind: timers, pipes, child processes. */
function leftovers(): string[] {
  return process
    .getActiveResourcesInfo()
    .filter((r) => r === 'Timeout' || r === 'PipeWrap' || r === 'ProcessWrap')
    .sort();
}

/** Closing a handle completes in a later turn of the event loop (libuv's close phase): allow a few. */
async function assertNothingLeft(): Promise<void> {
  for (let turn = 0; turn < 5 && leftovers().length > baseline.length; turn++) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(leftovers(), baseline);
}

test('E3: exit 0 is a success, exit 1 a failure (empty output kept empty)', async () => {
  assert.deepEqual(await probeExec({ command: ['true'] }, { timeoutMs: 5000 }), { result: 'success', output: '' });
  assert.deepEqual(await probeExec({ command: ['false'] }, { timeoutMs: 5000 }), { result: 'failure', output: '' });
  await assertNothingLeft();
});

test('E3: the output is kept on success and is the failure message on a non-zero exit', async () => {
  assert.deepEqual(await probeExec({ command: [NODE, '-e', 'process.stdout.write("ok\\n")'] }, { timeoutMs: 5000 }), { result: 'success', output: 'ok\n' });
  assert.deepEqual(await probeExec({ command: ['sh', '-c', 'echo not ready; exit 3'] }, { timeoutMs: 5000 }), { result: 'failure', output: 'not ready\n' });
});

test('E3: a command killed by a signal is a failure', async () => {
  assert.deepEqual(await probeExec({ command: ['sh', '-c', 'echo dying; kill -9 $$'] }, { timeoutMs: 5000 }), { result: 'failure', output: 'dying\n' });
});

test('E2: the output is stdout followed by stderr, not interleaved', async () => {
  const script = 'process.stderr.write("E1 "); process.stdout.write("O1 "); process.stderr.write("E2"); process.stdout.write("O2 "); process.exitCode = 1';
  assert.deepEqual(await probeExec({ command: [NODE, '-e', script] }, { timeoutMs: 5000 }), { result: 'failure', output: 'O1 O2 E1 E2' });
});

test('E2: 11 KiB of output is cut to exactly 10 240 bytes, stdout first', async () => {
  const { outcome } = await timed([NODE, '-e', 'process.stdout.write("x".repeat(11 * 1024)); process.stderr.write("never shown")'], { timeoutMs: 5000 });
  assert.equal(outcome.result, 'success');
  assert.equal(Buffer.byteLength(outcome.output), 10240);
  assert.equal(outcome.output, 'x'.repeat(10240));

  const split = await probeExec({ command: [NODE, '-e', 'process.stdout.write("o".repeat(6144)); process.stderr.write("e".repeat(6144))'] }, { timeoutMs: 5000 });
  assert.equal(split.output, 'o'.repeat(6144) + 'e'.repeat(4096));
});

test('E2: a flood of output is drained (the child never blocks) and capped', async () => {
  const { outcome, ms } = await timed(['sh', '-c', 'yes | head -c 20000000; yes no | head -c 5000000 >&2'], { timeoutMs: 10000 });
  assert.equal(outcome.result, 'success');
  assert.equal(outcome.output, 'y\n'.repeat(5120));
  assert.ok(ms < 10000, `took ${ms} ms`);
  await assertNothingLeft();
});

test('E4: a command that outlives the timeout is a failure with the exact output', async () => {
  const { outcome, ms } = await timed(['sleep', '30'], { timeoutMs: 300 });
  assert.deepEqual(outcome, { result: 'failure', output: 'command "sleep 30" timed out' });
  assert.ok(ms >= 290 && ms < 300 + SLACK_MS, `settled after ${ms} ms`);
  await assertNothingLeft();
});

test('E4: the timeout text joins argv with single spaces and quotes it like Go %q', async () => {
  const { outcome } = await timed(['sh', '-c', 'sleep 30; echo "a\\b"\t# é'], { timeoutMs: 200 });
  assert.equal(outcome.output, 'command "sh -c sleep 30; echo \\"a\\\\b\\"\\t# é" timed out');
  assert.equal(timeoutMessage(['/bin/check', '--flag=a b', '']), 'command "/bin/check --flag=a b " timed out');
});

test('E4: Go %q escapes control, format and unassigned characters; printable Unicode stays', () => {
  assert.equal(goQuote(''), '""');
  assert.equal(goQuote('plain text: 1+1=2 ~!@#%^&*()[]{}<>'), '"plain text: 1+1=2 ~!@#%^&*()[]{}<>"');
  assert.equal(goQuote('"\\'), '"\\"\\\\"');
  assert.equal(goQuote('\x07\b\f\n\r\t\v'), '"\\a\\b\\f\\n\\r\\t\\v"');
  assert.equal(goQuote('\x00\x1b\x7f'), '"\\x00\\x1b\\x7f"');
  assert.equal(goQuote('\u0085\u00a0\u200b\ufeff\u2028'), '"\\u0085\\u00a0\\u200b\\ufeff\\u2028"');
  assert.equal(goQuote('\ue000\u{10ffff}\u{e0001}'), '"\\ue000\\U0010ffff\\U000e0001"');
  assert.equal(goQuote('é ü ñ 日本 😀 \u0301'), '"é ü ñ 日本 😀 \u0301"');
  assert.equal(goQuote('\ud800'), '"\ufffd"');
});

test('E4: a child that ignores SIGTERM is still killed at the deadline, with its grandchild', async () => {
  const shellPid = pidFile();
  const sleepPid = pidFile();
  const script = `trap '' TERM; echo $$ > ${shellPid}; sleep 30 & echo $! > ${sleepPid}; wait; wait; sleep 30`;
  const { outcome, ms } = await timed(['sh', '-c', script], { timeoutMs: 400 });
  assert.equal(outcome.result, 'failure');
  assert.equal(outcome.output, `command ${goQuote(`sh -c ${script}`)} timed out`);
  assert.ok(ms < 400 + SLACK_MS, `settled after ${ms} ms`);
  // The direct child has been reaped by the time the promise settles.
  assert.equal(isAlive(readPid(shellPid)), false);
  await assertGone(readPid(sleepPid), 'the grandchild');
  await assertNothingLeft();
});

test('E4: a grandchild the child waits for is killed with the whole process group', async () => {
  const shellPid = pidFile();
  const sleepPid = pidFile();
  const { outcome, ms } = await timed(['sh', '-c', `echo $$ > ${shellPid}; sleep 30 & echo $! > ${sleepPid}; wait`], { timeoutMs: 300 });
  assert.equal(outcome.result, 'failure');
  assert.match(outcome.output, /^command "sh -c .*" timed out$/);
  assert.ok(ms < 300 + SLACK_MS, `settled after ${ms} ms`);
  assert.equal(isAlive(readPid(shellPid)), false);
  await assertGone(readPid(sleepPid), 'the grandchild');
});

test('E4: a background process that keeps the output pipes open makes the attempt a timeout', async () => {
  // The runtime's ExecSync waits for the exec's streams to drain, not only for its exit.
  const sleepPid = pidFile();
  const { outcome, ms } = await timed(['sh', '-c', `sleep 30 & echo $! > ${sleepPid}; exit 0`], { timeoutMs: 300 });
  assert.equal(outcome.result, 'failure');
  assert.match(outcome.output, /timed out$/);
  assert.ok(ms < 300 + SLACK_MS, `settled after ${ms} ms`);
  await assertGone(readPid(sleepPid), 'the background process');
  await assertNothingLeft();
});

test('E4: a descendant that leaves the process group (setsid) cannot hold the attempt or our pipes open', async () => {
  // A known limit: a group kill cannot reach a process in another session, so this test ends it
  // itself. What the prober does promise still holds: it settles on time and closes its pipe ends.
  const escapedPid = pidFile();
  const { outcome, ms } = await timed(['sh', '-c', `setsid sleep 30 & echo $! > ${escapedPid}; wait`], { timeoutMs: 300 });
  const pid = readPid(escapedPid);
  try {
    assert.equal(outcome.result, 'failure');
    assert.match(outcome.output, /timed out$/);
    assert.ok(ms < 300 + SLACK_MS, `settled after ${ms} ms`);
    await assertNothingLeft();
  } finally {
    process.kill(pid, 'SIGKILL');
  }
});

test('E3: a background process left behind by a successful command does not outlive the attempt', async () => {
  const sleepPid = pidFile();
  const { outcome, ms } = await timed(['sh', '-c', `sleep 30 >/dev/null 2>&1 & echo $! > ${sleepPid}; echo done`], { timeoutMs: 5000 });
  assert.deepEqual(outcome, { result: 'success', output: 'done\n' });
  assert.ok(ms < 2000, `took ${ms} ms`);
  await assertGone(readPid(sleepPid), 'the background process');
});

test('E3: a program that does not exist is a prober error (ENOENT), not a failure', async () => {
  const outcome = await probeExec({ command: ['probe-lens-no-such-program', '--version'] }, { timeoutMs: 5000 });
  assert.equal(outcome.result, 'unknown');
  assert.equal(outcome.output, '');
  assert.match(outcome.error ?? '', /ENOENT/);
  await assertNothingLeft();
});

test('E3: a file that is not executable is a prober error (EACCES), not a failure', async () => {
  const script = join(dir, 'not-executable.sh');
  writeFileSync(script, '#!/bin/sh\nexit 0\n');
  chmodSync(script, 0o644);
  const outcome = await probeExec({ command: [script] }, { timeoutMs: 5000 });
  assert.equal(outcome.result, 'unknown');
  assert.equal(outcome.output, '');
  assert.match(outcome.error ?? '', /EACCES/);
});

test('E3: an argument Node cannot pass (a NUL byte) and an empty command are prober errors', async () => {
  const nul = await probeExec({ command: ['echo', 'a\0b'] }, { timeoutMs: 5000 });
  assert.equal(nul.result, 'unknown');
  assert.ok(nul.error);
  assert.deepEqual(await probeExec({ command: [] }, { timeoutMs: 5000 }), { result: 'unknown', output: '', error: 'exec probe has no command to run' });
});

test('E1: argv is run without a shell — spaces, $VAR and globs reach the program literally', async () => {
  const outcome = await probeExec({ command: [NODE, '-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', 'a b', '$HOME', '*', '$(A)', '>', 'x;y'] }, { timeoutMs: 5000 });
  assert.equal(outcome.result, 'success');
  assert.deepEqual(JSON.parse(outcome.output), ['a b', '$HOME', '*', '$(A)', '>', 'x;y']);
  // A whole command line as one element is one program name, which does not exist.
  const oneString = await probeExec({ command: ['echo hello'] }, { timeoutMs: 5000 });
  assert.equal(oneString.result, 'unknown');
});

test('E1: the environment and working directory given by the caller are the child\'s', async () => {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', PROBE_LENS_TOKEN: 'from-the-pod-spec' };
  const outcome = await probeExec({ command: ['sh', '-c', 'printf "%s|%s|%s" "$PROBE_LENS_TOKEN" "${HOME-unset}" "$(pwd)"'], env, cwd: dir }, { timeoutMs: 5000 });
  assert.deepEqual(outcome, { result: 'success', output: `from-the-pod-spec|unset|${dir}` });
});

test('E1: without an env the child inherits this process\'s environment', async () => {
  process.env['PROBE_LENS_INHERITED'] = 'yes';
  try {
    const outcome = await probeExec({ command: ['sh', '-c', 'printf %s "$PROBE_LENS_INHERITED"'] }, { timeoutMs: 5000 });
    assert.equal(outcome.output, 'yes');
  } finally {
    delete process.env['PROBE_LENS_INHERITED'];
  }
});

test('P5: aborting the signal kills the process group at once and settles as a prober error', async () => {
  const shellPid = pidFile();
  const sleepPid = pidFile();
  const controller = new AbortController();
  const pending = timed(['sh', '-c', `trap '' TERM; echo $$ > ${shellPid}; sleep 30 & echo $! > ${sleepPid}; wait`], { timeoutMs: 20000, signal: controller.signal });
  for (let i = 0; i < 100 && !existsSync(sleepPid); i++) await delay(10);
  await delay(20);
  const abortedAt = performance.now();
  controller.abort();
  const { outcome } = await pending;
  const settleMs = performance.now() - abortedAt;
  assert.deepEqual(outcome, { result: 'unknown', output: '', error: 'rpc error: code = Canceled desc = context canceled' });
  assert.ok(settleMs < SLACK_MS, `settled ${settleMs} ms after the abort`);
  assert.equal(isAlive(readPid(shellPid)), false);
  await assertGone(readPid(sleepPid), 'the grandchild');
  await assertNothingLeft();
});

test('P5: an already aborted signal starts nothing', async () => {
  const marker = join(dir, 'must-not-exist');
  const outcome = await probeExec({ command: ['touch', marker] }, { timeoutMs: 5000, signal: AbortSignal.abort() });
  assert.deepEqual(outcome, { result: 'unknown', output: '', error: 'rpc error: code = Canceled desc = context canceled' });
  await delay(50);
  assert.equal(existsSync(marker), false);
});
