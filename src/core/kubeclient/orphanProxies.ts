import { spawnSync } from 'node:child_process';
import { type Dirent, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A `kubectl proxy` outlives a host that dies without stopping it (SIGKILL, a crash): it leads
 * a process group of its own, so nothing takes it down, and it keeps the kubeconfig's
 * credentials open on a socket. Each proxy's private directory therefore says whose it is
 * (`owner.json`: the host process, when it started, and kubectl's pid); the next host to start a
 * proxy — or the extension, once it activates — ends every proxy whose host is gone.
 */

/** The prefix of each proxy's private directory under the system's temporary directory. */
export const PROXY_DIR_PREFIX = 'probe-lens-';
const OWNER_FILE = 'owner.json';

export interface ProxyOwnership {
  /** The process that started the proxy (the CLI, the extension host). */
  readonly ownerPid: number;
  /** When it started, where the platform says (Linux): a pid used again by another process is not the owner. */
  readonly ownerStart?: string;
  readonly kubectlPid: number;
  /** The proxy's socket: a process whose command line names it is that proxy. */
  readonly socketPath: string;
}

/** Writes who owns the proxy in `dir` (again after each restart of kubectl: its pid changes). */
export function writeOwnership(dir: string, kubectlPid: number, socketPath: string): void {
  const start = processStart(process.pid);
  const ownership: ProxyOwnership = { ownerPid: process.pid, ...(start !== undefined ? { ownerStart: start } : {}), kubectlPid, socketPath };
  try {
    writeFileSync(join(dir, OWNER_FILE), JSON.stringify(ownership), { mode: 0o600 });
  } catch {
    // A directory removed meanwhile (the proxy stopped): nothing to own.
  }
}

/**
 * Ends the proxies whose owner is gone and removes their directories; returns the kubectl pids
 * it ended. Only this user's directories, only a process whose command line names the
 * directory's own socket (a pid used again is left alone). Never throws.
 */
export function reapOrphanedProxies(root: string = tmpdir()): number[] {
  if (process.platform === 'win32') return [];
  const reaped: number[] = [];
  for (const dir of proxyDirectories(root)) {
    const ownership = readOwnership(dir);
    if (!ownership || ownerAlive(ownership)) continue;
    if (isAlive(ownership.kubectlPid) && commandLine(ownership.kubectlPid)?.includes(`--unix-socket=${ownership.socketPath}`)) {
      try {
        // The whole group: what kubectl started (a credential plugin) goes with it.
        process.kill(-ownership.kubectlPid, 'SIGKILL');
        reaped.push(ownership.kubectlPid);
      } catch {
        // Gone meanwhile.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return reaped;
}

function proxyDirectories(root: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const uid = process.getuid?.();
  return entries
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(PROXY_DIR_PREFIX))
    .map((entry) => join(root, entry.name))
    .filter((dir) => {
      try {
        return uid === undefined || statSync(dir).uid === uid;
      } catch {
        return false;
      }
    });
}

function readOwnership(dir: string): ProxyOwnership | undefined {
  let value: Partial<ProxyOwnership> | null;
  try {
    value = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as Partial<ProxyOwnership> | null;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(value?.ownerPid) || !Number.isInteger(value?.kubectlPid) || typeof value?.socketPath !== 'string') return undefined;
  return value as ProxyOwnership;
}

function ownerAlive(ownership: ProxyOwnership): boolean {
  if (!isAlive(ownership.ownerPid)) return false;
  // Alive, but another process under the same pid is not the owner.
  return ownership.ownerStart === undefined || processStart(ownership.ownerPid) === ownership.ownerStart;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's start time (clock ticks since boot, /proc/PID/stat field 22) on Linux; `undefined` elsewhere. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name, which may hold spaces and parentheses: fields 3 onwards.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    // Not Linux: ps says it (macOS, the BSDs).
    const ps = spawnSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000 });
    return ps.status === 0 ? ps.stdout : undefined;
  }
}
