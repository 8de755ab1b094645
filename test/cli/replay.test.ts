/**
 * `probe-lens scenario` and `probe-lens replay` against the real binary (docs/design.md §3): the
 * scenario on stdout reads back with `simulate --scenario`, notes on stderr; the replay as a
 * table and as JSON; bad usage and unreadable input exit 2.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseScenario } from '../../src/core/scenario/parse';
import { runCli } from '../helpers/cli';
import { scratchDir } from '../helpers/scratch';

const FIXTURES = join('test', 'fixtures', 'insights');
const RECORDING = join(FIXTURES, 'slow-start.local.jsonl');
const MANIFEST = join(FIXTURES, 'slow-start.yaml');
const WITH_STARTUP = join(FIXTURES, 'slow-start.startup.yaml');

function cli(args: readonly string[], input?: string) {
  return runCli(args, input !== undefined ? { input } : {});
}

function file(name: string, text: string): string {
  const path = join(scratchDir('probe-lens-replay-'), name);
  writeFileSync(path, text);
  return path;
}

test('scenario: the recording as a design §3 scenario on stdout, which parses and simulate takes; notes on stderr and as comments', () => {
  const { code, stdout, stderr } = cli(['scenario', RECORDING]);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^# Extracted by probe-lens from .*slow-start\.local\.jsonl \(195 s recorded\): outcomes by time since the first start \(a local run: its kills were only reported, and the process ran on through them\)\.\n/);
  const parsed = parseScenario(stdout);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  const web = parsed.scenario.containers['web'];
  assert.ok(web && web.readyAfter > 120 && web.readyAfter < 126, `readyAfter ${web?.readyAfter}`);
  const scenarioFile = file('app.scenario.yaml', stdout);
  const simulated = cli(['simulate', MANIFEST, '--scenario', scenarioFile, '--for', '5m', '--format', 'jsonl']);
  assert.equal(simulated.code, 0, simulated.stderr);
  assert.ok(simulated.stdout.includes('"reason":"Killing"'), 'played as a cluster would: the slow start is killed');
});

test('scenario: a note about the recording goes to stderr and into the file as a comment', () => {
  const recording = cli(['simulate', MANIFEST, '--scenario', file('s.yaml', 'containers: {web: {readyAfter: 1000}}'), '--for', '2m', '--format', 'jsonl']).stdout;
  const { code, stdout, stderr } = cli(['scenario', file('never.jsonl', recording)]);
  assert.equal(code, 0, stderr);
  assert.match(stderr, /^probe-lens: note: web: no probe ever succeeded: readyAfter is the recording's length \(120 s\)/m);
  assert.match(stdout, /^ {2}# no probe ever succeeded: readyAfter is the recording's length \(120 s\)/m);
  assert.ok(parseScenario(stdout).ok);
});

test('scenario reads standard input (-)', () => {
  const { code, stdout } = cli(['scenario', '-'], readFileSync(RECORDING, 'utf8'));
  assert.equal(code, 0);
  assert.ok(parseScenario(stdout).ok);
});

test('replay --format text: per pod and container, restarts / time to Ready / time not Ready / kills, before → after', () => {
  const { code, stdout, stderr } = cli(['replay', RECORDING, '--manifest', WITH_STARTUP]);
  assert.equal(code, 0, stderr);
  assert.equal(
    stdout,
    `slow-start.local.jsonl replayed against slow-start.startup.yaml (195 s, before → after)

web/web
  restarts        3          → 0
  time to Ready   2m 05s     → 2m 10s
  time not Ready  2m 05s     → 2m 10s
  kills           liveness 3 → none
`,
  );
  assert.equal(stderr, '');
});

test('replay --format json: schemaVersion 1, durationSeconds, per container each figure before and after, notes', () => {
  const { code, stdout } = cli(['replay', RECORDING, '--manifest', WITH_STARTUP, '--format', 'json']);
  assert.equal(code, 0);
  const report = JSON.parse(stdout) as { schemaVersion: number; durationSeconds: number; containers: Record<string, unknown>[]; notes: string[] };
  assert.equal(report.schemaVersion, 1);
  assert.ok(report.durationSeconds > 190 && report.durationSeconds < 200);
  const [web] = report.containers;
  assert.equal(web?.['pod'], 'web');
  assert.equal(web?.['container'], 'web');
  assert.deepEqual(web?.['restarts'], { before: 3, after: 0 });
  assert.deepEqual(web?.['kills'], { before: { liveness: 3, startup: 0 }, after: { liveness: 0, startup: 0 } });
  const ready = web?.['timeToReady'] as { before: number; after: number };
  assert.ok(ready.before > 120 && ready.after >= 130);
  assert.ok('before' in (web?.['timeNotReady'] as object));
  assert.deepEqual(report.notes, []);
});

test('replay: containers on one side only are said in the notes', () => {
  const renamed = file('renamed.yaml', readFileSync(WITH_STARTUP, 'utf8').replace('- name: web', '- name: api'));
  const { code, stdout } = cli(['replay', RECORDING, '--manifest', renamed, '--format', 'json']);
  assert.equal(code, 0);
  const report = JSON.parse(stdout) as { containers: unknown[]; notes: string[] };
  assert.deepEqual(report.containers, []);
  assert.deepEqual(report.notes, ['web/web is in the recording but not in the manifest: not replayed', 'web/api is in the manifest but not in the recording: replayed as an app that is always healthy']);
  const text = cli(['replay', RECORDING, '--manifest', renamed]).stdout;
  assert.match(text, /No container of the recording is in the manifest: nothing to compare\.\n\nNotes:\n {2}- web\/web is in the recording but not in the manifest: not replayed\n/);
});

for (const [name, args, message] of [
  ['no --manifest', ['replay', RECORDING], /replay needs --manifest FILE/],
  ['no recording', ['replay', '--manifest', MANIFEST], /replay needs exactly one RECORDING\.jsonl/],
  ['a bad --format', ['replay', RECORDING, '--manifest', MANIFEST, '--format', 'yaml'], /--format must be text or json, not "yaml"/],
  ['a missing recording', ['replay', 'nope.jsonl', '--manifest', MANIFEST], /cannot read recording nope\.jsonl: no such file/],
  ['a missing manifest', ['replay', RECORDING, '--manifest', 'nope.yaml'], /cannot read nope\.yaml: no such file/],
  ['a manifest as the recording', ['replay', MANIFEST, '--manifest', MANIFEST], /^probe-lens: .*slow-start\.yaml is not a Probe Lens recording: line 1: not JSON: .*\(write one with 'probe-lens simulate\|run FILE --format jsonl'\)\n$/],
  ['an unknown option', ['replay', RECORDING, '--manifest', MANIFEST, '--for', '1m'], /Unknown option '--for'/],
  ['scenario without a recording', ['scenario'], /scenario needs exactly one RECORDING\.jsonl/],
  ['scenario of a file that is not a recording', ['scenario', MANIFEST], /^probe-lens: .*slow-start\.yaml is not a Probe Lens recording: line 1: not JSON: /],
] as const) {
  test(`bad usage exits 2 with a message on stderr, nothing on stdout — ${name}`, () => {
    const { code, stdout, stderr } = cli(args);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, message);
  });
}

test('replay --help and scenario --help print their usage on stdout', () => {
  for (const command of ['replay', 'scenario']) {
    const { code, stdout } = cli([command, '--help']);
    assert.equal(code, 0);
    assert.match(stdout, new RegExp(`^Usage: probe-lens ${command} RECORDING\\.jsonl`));
  }
});
