import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The kubectl processes (the dispatcher or a `kubectl.1.NN` it runs) working for one test's
 * kubeconfig: named by `KUBECONFIG` in their environment, or by `--kubeconfig` in their argv. The
 * kubeconfig is what tells a test's kubectl from every other test's, and the CLI passes it only in
 * the environment, so the command line alone (pgrep -f) never finds them. Linux (/proc) only.
 */
export function kubectlProcesses(kubeconfig: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const argv = readNulSeparated(`/proc/${entry}/cmdline`);
    if (!argv || !basename(argv[0] ?? '').startsWith('kubectl')) continue;
    const named = argv.some((arg, i) => arg === `--kubeconfig=${kubeconfig}` || (arg === '--kubeconfig' && argv[i + 1] === kubeconfig));
    if (named || readNulSeparated(`/proc/${entry}/environ`)?.includes(`KUBECONFIG=${kubeconfig}`)) pids.push(Number(entry));
  }
  return pids;
}

/**
 * The same, once the kill has had `graceMs` to land: a signalled process is gone a moment after
 * its parent returns, not at the same instant. Resolves with what is still there.
 */
export async function kubectlProcessesAfter(kubeconfig: string, graceMs = 500): Promise<number[]> {
  const end = performance.now() + graceMs;
  let left = kubectlProcesses(kubeconfig);
  while (left.length > 0 && performance.now() < end) {
    await sleep(20);
    left = kubectlProcesses(kubeconfig);
  }
  return left;
}

/** A /proc file of NUL-separated strings; undefined when the process is gone or not ours to read. */
function readNulSeparated(path: string): string[] | undefined {
  try {
    return readFileSync(path, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}
