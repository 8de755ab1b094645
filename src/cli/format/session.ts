import type { EngineEvent } from '../../core/engine/events';
import type { ProbeType } from '../../core/manifest';
import type { ProbeResult } from '../../core/probers/types';
import { type ContainerSummary, SessionSummary } from '../../core/session/summary';
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

/** `--format jsonl`: a header line with the schema version, then one line per event. */
export function jsonlOutput(sink: OutputSink, header: Record<string, unknown>): SessionOutput {
  let buffer = `${JSON.stringify(runHeader(header))}\n`;
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
 */
export function textOutput(sink: OutputSink): SessionOutput & { redraw(): void } {
  const summary = new SessionSummary();
  const paint = (code: number, text: string) => (sink.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lastFailure = new Map<string, string>();
  let drawnLines = 0;
  const clearDrawn = () => {
    if (sink.live && drawnLines > 0) sink.write(`\x1b[${drawnLines}A\x1b[J`);
    drawnLines = 0;
  };
  const draw = () => {
    const text = renderSummary(summary, paint);
    sink.write(text);
    drawnLines = text.split('\n').length - 1;
  };
  return {
    emit(event) {
      summary.apply(event);
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
      return `${stamp}  ${paint(event.eventType === 'Warning' ? 33 : 36, event.reason)}  ${event.message}`;
    }
    case 'kubelet':
      return `${stamp}  ${paint(2, 'cluster kubelet:')} ${event.container === undefined ? `pod ${event.ready ? 'Ready' : 'NotReady'}` : `${event.started ? 'started' : 'not started'} · ${event.ready ? 'ready' : 'not ready'} · restarts ${event.restartCount ?? 0}`}`;
    case 'prediction':
      return `${stamp}  ${paint(event.state === 'missed' ? 33 : 35, `prediction ${event.state}`)}  ${event.message}`;
    case 'clusterEvent':
      return `${stamp}  ${paint(2, 'cluster event:')} ${paint(event.eventType === 'Warning' ? 33 : 36, event.reason)}${event.count > 1 ? ` (×${event.count})` : ''}  ${event.message}`;
    case 'disagreement':
      return `${stamp}  ${paint(event.state === 'open' ? 31 : 32, event.state === 'open' ? 'disagreement' : 'agreement')}  ${event.message}`;
    case 'target':
      return `${stamp}  probing pod ${event.namespace}/${event.clusterPod}${event.podIP ? ` (${event.podIP})` : ''}`;
    default:
      return undefined;
  }
}

function renderSummary(summary: SessionSummary, paint: (code: number, text: string) => string): string {
  const lines: string[] = [];
  for (const pod of summary.pods.values()) {
    for (const container of pod.containers.values()) {
      lines.push(containerLine(pod.name, container, paint));
      for (const type of PROBE_ORDER) {
        const probe = container.probes.get(type);
        if (!probe) continue;
        const recent = probe.recent.map((r) => paint(GLYPH[r][1], GLYPH[r][0])).join('');
        const last = probe.lastError !== undefined ? `error: ${probe.lastError}` : probe.lastOutput.split('\n')[0]?.slice(0, 80) || `ok in ${Math.round(probe.lastDurationMs)} ms`;
        const pad = ' '.repeat(Math.max(0, 12 - probe.recent.length));
        lines.push(`    ${type.padEnd(9)}  ${(probe.result ?? '-').padEnd(7)}  ${recent}${pad}  ${`${probe.successes}/${probe.attempts} ok`.padEnd(10)}  ${paint(2, last)}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

function containerLine(pod: string, container: ContainerSummary, paint: (code: number, text: string) => string): string {
  const state = container.reason ? `${container.state} (${container.reason})` : container.state;
  const started = container.started ? 'started' : paint(33, 'not started');
  const ready = container.ready ? paint(32, 'ready') : paint(31, 'not ready');
  return `  ${paint(1, `${pod}/${container.name}`)}  ${state} · ${started} · ${ready} · restarts ${container.restartCount}`;
}
