/**
 * Retained heap per idle worker. Goal (issue 3): ≤ 2 KiB, counting everything a probing pod
 * keeps (its runtime, container records, results caches, worker, loop, pending timer). Baseline,
 * in the same run: one bare pending timer, the least any scheduled worker can cost.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const GOAL_BYTES = 2048;

export function runHeapBenchmark(log: (line: string) => void): void {
  const child = spawnSync(process.execPath, ['--expose-gc', join(__dirname, 'heapAlone.js')], { encoding: 'utf8' });
  if (child.status !== 0) {
    log(`heap — the measuring process failed: ${child.stderr.slice(0, 300)}`);
    return;
  }
  const { workers, perWorker, perTimer } = JSON.parse(child.stdout) as { workers: number; perWorker: number; perTimer: number };
  log(`heap — retained heap per idle worker (${workers} workers: startup, readiness and liveness on each of ${workers / 3} pods; period 1 h)`);
  log(`  baseline: a bare pending timer: ${perTimer.toFixed(0)} B`);
  log(`  engine:   ${perWorker.toFixed(0)} B per worker, pod and container bookkeeping included (${(perWorker / perTimer).toFixed(1)}× a bare timer)`);
  log(`  ${perWorker <= GOAL_BYTES ? 'PASS' : 'FAIL'}  ≤ ${GOAL_BYTES} B per idle worker`);
}
