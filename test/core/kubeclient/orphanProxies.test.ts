import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { PROXY_DIR_PREFIX, reapOrphanedProxies, writeOwnership } from '../../../src/core/kubeclient/orphanProxies';
import { scratchDir } from '../../helpers/scratch';

// The kubectl proxies a host that died left behind: ended by whoever starts next, by what their
// private directories say. Real processes stand in for kubectl (a process group of their own,
// the socket path in their argv, as kubectl proxy's); the directories live in a scratch root.

const root = scratchDir('probe-lens-orphans-');
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A process playing `kubectl proxy --unix-socket=…` in its own group, and its directory. */
function proxyLike(name: string): { dir: string; socketPath: string; child: ChildProcess } {
  const dir = join(root, `${PROXY_DIR_PREFIX}${name}`);
  mkdirSync(dir, { mode: 0o700 });
  const socketPath = join(dir, 'api.sock');
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'proxy', `--unix-socket=${socketPath}`], { detached: true, stdio: 'ignore' });
  children.push(child);
  return { dir, socketPath, child };
}

/** Whether `pid` runs (a zombie waiting for its parent does not). */
function running(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && running(pid); i++) await sleep(20);
  return !running(pid);
}

/** A pid that ran and is gone. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

test('a proxy whose host is alive is left alone; its directory stays', { skip: process.platform !== 'linux' }, () => {
  const { dir, socketPath, child } = proxyLike('alive');
  writeOwnership(dir, child.pid as number, socketPath);
  assert.deepEqual(reapOrphanedProxies(root), []);
  assert.ok(running(child.pid as number) && existsSync(dir));
});

test('a proxy whose host died is ended with its group, and its directory removed', { skip: process.platform !== 'linux' }, async () => {
  const { dir, socketPath, child } = proxyLike('orphan');
  writeFileSync(join(dir, 'owner.json'), JSON.stringify({ ownerPid: deadPid(), kubectlPid: child.pid, socketPath }));
  assert.deepEqual(reapOrphanedProxies(root), [child.pid]);
  assert.ok(await gone(child.pid as number), 'the orphan was ended');
  assert.equal(existsSync(dir), false);
});

test('a host pid now used by another process is not the owner (its start time differs): the proxy is an orphan', { skip: process.platform !== 'linux' }, async () => {
  const { dir, socketPath, child } = proxyLike('reused-owner');
  writeFileSync(join(dir, 'owner.json'), JSON.stringify({ ownerPid: process.pid, ownerStart: '1', kubectlPid: child.pid, socketPath }));
  assert.deepEqual(reapOrphanedProxies(root), [child.pid]);
  assert.ok(await gone(child.pid as number));
});

test('a kubectl pid now used by a process that is not that proxy is never signalled; the stale directory goes', { skip: process.platform !== 'linux' }, () => {
  const { dir, socketPath } = proxyLike('reused-kubectl');
  const stranger = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
  children.push(stranger);
  writeFileSync(join(dir, 'owner.json'), JSON.stringify({ ownerPid: deadPid(), kubectlPid: stranger.pid, socketPath }));
  assert.deepEqual(reapOrphanedProxies(root), []);
  assert.ok(running(stranger.pid as number), 'a stranger is not killed');
  assert.equal(existsSync(dir), false);
});

test('directories without a readable owner (another program\'s, an older Probe Lens\'s) are not touched', () => {
  const plain = join(root, `${PROXY_DIR_PREFIX}plain`);
  const broken = join(root, `${PROXY_DIR_PREFIX}broken`);
  mkdirSync(plain);
  mkdirSync(broken);
  writeFileSync(join(broken, 'owner.json'), '{not json');
  assert.deepEqual(reapOrphanedProxies(root), []);
  assert.ok(existsSync(plain) && existsSync(broken));
  assert.deepEqual(reapOrphanedProxies(join(root, 'missing')), [], 'no root: nothing, no throw');
});
