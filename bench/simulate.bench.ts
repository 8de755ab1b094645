/**
 * `simulate` throughput: 1 000 pods × 3 probes for 24 virtual hours. Goal (issue 3): at least
 * 1 million probe attempts per CPU-second. Baseline, in the same run: the bare virtual clock
 * driving the same number of fixed-rate timers with an empty callback — the floor any
 * simulation on this clock pays — so the ratio says what the kubelet logic costs on top.
 */
import { VirtualClock } from '../src/core/base/clock';
import { parseManifest } from '../src/core/manifest';
import { DEFAULT_SCENARIO } from '../src/core/scenario/scenario';
import { simulate } from '../src/core/targets/simulation';
import { podsManifest } from './pods';

const PODS = 1000;
const HOURS = 24;
const PERIOD_S = 10;
const GOAL_ATTEMPTS_PER_CPU_SECOND = 1_000_000;

export function runSimulateBenchmark(log: (line: string) => void): void {
  const manifest = parseManifest(
    podsManifest(PODS, () => `      startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: ${PERIOD_S}, failureThreshold: 30}
      readinessProbe: {grpc: {port: 9090}, periodSeconds: ${PERIOD_S}}
      livenessProbe: {tcpSocket: {port: http}, periodSeconds: ${PERIOD_S}}`),
  );
  log(`simulate — ${PODS} pods × 3 probes (startup, readiness, liveness; http, tcp, grpc), period ${PERIOD_S} s, ${HOURS} virtual hours`);

  const baseline = cpuSeconds(() => bareTicks(PODS * 3, HOURS * 3600 * 1000, PERIOD_S * 1000));
  const ticksPerCpuSecond = baseline.value / baseline.cpu;
  log(`  baseline: bare virtual clock, ${PODS * 3} fixed-rate timers: ${fmt(baseline.value)} ticks in ${baseline.cpu.toFixed(2)} CPU-s = ${fmt(ticksPerCpuSecond)} ticks/CPU-s`);

  let attempts = 0;
  let events = 0;
  const engine = cpuSeconds(() =>
    simulate(manifest, {
      scenario: DEFAULT_SCENARIO,
      durationSeconds: HOURS * 3600,
      seed: 1,
      emit: (event) => {
        events++;
        if (event.type === 'attempt') attempts++;
      },
    }),
  );
  const attemptsPerCpuSecond = attempts / engine.cpu;
  log(`  engine:   ${fmt(attempts)} attempts (${fmt(events)} events) in ${engine.cpu.toFixed(2)} CPU-s (${engine.wall.toFixed(2)} s wall) = ${fmt(attemptsPerCpuSecond)} attempts/CPU-s`);
  log(`  ratio engine attempts / bare ticks per CPU-second: ${(attemptsPerCpuSecond / ticksPerCpuSecond).toFixed(2)}`);
  log(`  goal ≥ ${fmt(GOAL_ATTEMPTS_PER_CPU_SECOND)} attempts/CPU-s: ${attemptsPerCpuSecond >= GOAL_ATTEMPTS_PER_CPU_SECOND ? 'PASS' : 'FAIL'}`);
}

/** The same fixed-rate timer grid the engine's loops run, with nothing behind it. */
function bareTicks(timers: number, durationMs: number, periodMs: number): number {
  const clock = new VirtualClock();
  let ticks = 0;
  for (let i = 0; i < timers; i++) {
    const origin = clock.now();
    const tick = () => {
      ticks++;
      const next = origin + (Math.floor((clock.now() - origin) / periodMs) + 1) * periodMs;
      clock.schedule(next - clock.now(), tick);
    };
    clock.schedule(periodMs, tick);
  }
  clock.advanceTo(durationMs);
  return ticks;
}

function cpuSeconds<T>(work: () => T): { value: T; cpu: number; wall: number } {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const value = work();
  const used = process.cpuUsage(cpu);
  return { value, cpu: (used.user + used.system) / 1e6, wall: (performance.now() - wall) / 1000 };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
