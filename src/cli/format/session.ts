import type { EngineEvent } from '../../core/engine/events';
import type { ProbeType } from '../../core/manifest';
import type { ProbeResult } from '../../core/probers/types';
import { kubeletSuffix } from '../../core/session/clusterText';
import type { ContainerSnapshot, KillMode, ProbeSnapshot, SessionClock, SessionSnapshot } from '../../core/session/snapshot';
import { SessionState } from '../../core/session/state';
import { runHeader } from '../../core/timeline/jsonl';

const PROBE_ORDER: readonly ProbeType[] = ['startup', 'readiness', 'liveness'];
const GLYPH: Readonly<Record<ProbeResult, [string, number]>> = { success: ['✓', 32], warning: ['!', 33], failure: ['✗', 31], unknown: ['?', 2] };

export interface SessionOutput {
  readonly emit: (event: EngineEvent) => void;
  /** Writes what is still buffered and, for people, the final summary. */
  finish(): void;
}

export interface OutputSink {
  write(text: string): void;
  readonly color: boolean;
  /** A terminal: the summary is redrawn in place. */
  readonly live: boolean;
}

export interface JsonlOptions {
  /**
   * Each line is written as it happens (`run`: a pipe to `jq` shows it live). Otherwise lines are
   * gathered into 64 KiB writes (`simulate`, which writes a day of events in a second).
   */
  readonly live?: boolean;
}

/** `--format jsonl`: a header line with the schema version, then one line per event. */
export function jsonlOutput(sink: OutputSink, header: Record<string, unknown>, options: JsonlOptions = {}): SessionOutput {
  const headerLine = `${JSON.stringify(runHeader(header))}\n`;
  if (options.live) {
    // The header goes with the first line: a run refused before anything happened writes nothing.
    let started = false;
    const start = () => {
      if (!started) sink.write(headerLine);
      started = true;
    };
    return {
      emit: (event) => {
        start();
        sink.write(`${JSON.stringify(event)}\n`);
      },
      finish: start,
    };
  }
  let buffer = headerLine;
  const flush = () => {
    if (buffer) sink.write(buffer);
    buffer = '';
  };
  return {
    emit(event) {
      buffer += `${JSON.stringify(event)}\n`;
      if (buffer.length > 64 * 1024) flush();
    },
    finish: flush,
  };
}

/**
 * For people: a line per change that matters (results, kills, back-off, readiness, a new kind of
 * failure), and the state of every container — redrawn in place on a terminal, printed at the end.
 * The state is the session's one model (`SessionState`), as the editor's views read it.
 */
export function textOutput(sink: OutputSink, kills: KillMode = 'reported'): SessionOutput & { redraw(): void } {
  const state = new SessionState(kills);
  const paint = (code: number, text: string) => (sink.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lastFailure = new Map<string, string>();
  // Probes of a container instance that have had an attempt: a result before one is the kubelet's initial value (W2).
  const attempted = new Set<string>();
  let drawnLines = 0;
  let t = 0;
  const clearDrawn = () => {
    if (sink.live && drawnLines > 0) sink.write(`\x1b[${drawnLines}A\x1b[J`);
    drawnLines = 0;
  };
  const draw = () => {
    const text = renderSummary(state.snapshot({ t, clock: WALL }), paint);
    sink.write(text);
    drawnLines = text.split('\n').length - 1;
  };
  return {
    emit(event) {
      state.apply(event);
      t = event.t;
      const key = 'probe' in event && 'containerId' in event ? `${event.pod}\u0000${event.container}\u0000${event.probe}\u0000${event.containerId}` : undefined;
      if (event.type === 'attempt' && key) attempted.add(key);
      if (event.type === 'result' && key && !attempted.has(key)) return;
      const line = notableLine(event, lastFailure, paint);
      if (line === undefined) return;
      clearDrawn();
      sink.write(`${line}\n`);
      if (sink.live) draw();
    },
    redraw() {
      if (!sink.live) return;
      clearDrawn();
      draw();
    },
    finish() {
      clearDrawn();
      sink.write('\n');
      draw();
    },
  };
}

const WALL: SessionClock = { kind: 'wall' };

/** A message on one line: its first, and how many more it had (exec output often ends in a newline). */
function oneLine(message: string): string {
  const lines = message.split('\n').map((line) => line.trimEnd()).filter((line) => line !== '');
  if (lines.length <= 1) return lines[0] ?? '';
  return `${lines[0]} (+${lines.length - 1} more line${lines.length === 2 ? '' : 's'})`;
}

function notableLine(event: EngineEvent, lastFailure: Map<string, string>, paint: (code: number, text: string) => string): string | undefined {
  const where = 'container' in event && event.container !== undefined ? `${event.pod}/${event.container}` : event.pod;
  const stamp = `${paint(2, `${event.t.toFixed(1).padStart(7)}s`)}  ${where}`;
  switch (event.type) {
    case 'result':
      return `${stamp}  ${event.probe} → ${paint(event.value === 'Success' ? 32 : event.value === 'Failure' ? 31 : 2, event.value)}`;
    case 'container':
      return `${stamp}  container ${event.state}${event.reason ? ` (${event.reason})` : ''}, restarts ${event.restartCount}  ${paint(2, event.containerId)}`;
    case 'pod':
      return `${stamp}  pod ${event.ready ? paint(32, 'Ready') : paint(31, 'NotReady')}`;
    case 'event': {
      if (event.reason === 'Unhealthy') {
        // Repeats of the same failure say nothing new; a different one does.
        const key = `${where}/${event.message.split(':')[0]}`;
        if (lastFailure.get(key) === event.message) return undefined;
        lastFailure.set(key, event.message);
      }
      return `${stamp}  ${paint(event.eventType === 'Warning' ? 33 : 36, event.reason)}  ${oneLine(event.message)}`;
    }
    case 'kubelet':
      return `${stamp}  ${paint(2, 'cluster kubelet:')} ${event.container === undefined ? `pod ${event.ready ? 'Ready' : 'NotReady'}` : `${event.started ? 'started' : 'not started'} · ${event.ready ? 'ready' : 'not ready'} · restarts ${event.restartCount ?? 0}`}`;
    case 'prediction':
      return `${stamp}  ${paint(event.state === 'missed' ? 33 : 35, `prediction ${event.state}`)}  ${event.message}`;
    case 'clusterEvent':
      return `${stamp}  ${paint(2, 'cluster event:')} ${paint(event.eventType === 'Warning' ? 33 : 36, event.reason)}${event.count > 1 ? ` (×${event.count})` : ''}  ${oneLine(event.message)}`;
    case 'disagreement':
      return `${stamp}  ${paint(event.state === 'open' ? 31 : 32, event.state === 'open' ? 'disagreement' : 'agreement')}  ${event.message}`;
    case 'target':
      return `${stamp}  probing pod ${event.namespace}/${event.clusterPod}${event.podIP ? ` (${event.podIP})` : ''}`;
    default:
      return undefined;
  }
}

function renderSummary(snapshot: SessionSnapshot, paint: (code: number, text: string) => string): string {
  const lines: string[] = [];
  for (const pod of snapshot.pods.values()) {
    for (const container of pod.containers.values()) {
      lines.push(containerLine(pod.name, container, paint));
      for (const type of PROBE_ORDER) {
        const probe = container.probes.get(type);
        if (probe) lines.push(probeLine(type, probe, paint));
      }
      const differs = container.disagreement;
      if (differs) lines.push(`    ${paint(31, `disagrees since ${differs.t.toFixed(1)}s:`)} ${differs.message}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `readiness  Success  ✓✓✓✗  3/4 ok  ok in 2 ms`. A probe none of whose attempts got an answer
 * (every one a prober error: exec not allowed, a port-forward refused) was not run: its cached
 * result is only the kubelet's initial value, so it is not shown as one.
 */
function probeLine(type: ProbeType, probe: ProbeSnapshot, paint: (code: number, text: string) => string): string {
  const { attempts, successes, answered } = probe.total;
  const result = attempts === 0 ? '-' : answered === 0 ? 'not run' : (probe.result ?? '-');
  const recent = probe.recent.map((r) => paint(GLYPH[r][1], GLYPH[r][0])).join('');
  const pad = ' '.repeat(Math.max(0, 12 - probe.recent.length));
  const newest = probe.newest;
  const last = !newest ? 'waiting for the first attempt' : newest.error !== undefined ? `error: ${newest.error}` : oneLine(newest.output).slice(0, 80) || `ok in ${Math.round(newest.durationMs)} ms`;
  return `    ${type.padEnd(9)}  ${result.padEnd(7)}  ${recent}${pad}  ${`${successes}/${attempts} ok`.padEnd(10)}  ${paint(2, last)}`;
}

/** `web/web  running · started · ready · restarts 2`, and in a cluster the cluster kubelet's word beside ours. */
function containerLine(pod: string, container: ContainerSnapshot, paint: (code: number, text: string) => string): string {
  const state = container.reason ? `${container.state} (${container.reason})` : container.state;
  const started = container.started ? 'started' : paint(33, 'not started');
  const ready = container.ready ? paint(32, 'ready') : paint(31, 'not ready');
  const kubelet = kubeletSuffix(container, false);
  return `  ${paint(1, `${pod}/${container.name}`)}  ${state} · ${started} · ${ready} · restarts ${container.restartCount}${kubelet ? ` · ${container.disagreement ? paint(31, kubelet) : kubelet}` : ''}`;
}
