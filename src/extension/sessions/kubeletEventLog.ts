import type * as vscode from 'vscode';
import type { EngineEvent } from '../../core/engine/events';
import type { ProbingSession } from './probingSession';

/** The same event text for the same container is written again only after this long. */
const REPEAT_MS = 10_000;

/**
 * Writes a session's kubelet events (Unhealthy, ProbeWarning, Killing, BackOff) to the output
 * channel: warnings as warnings. A probe failing every second would bury everything else, so a
 * message repeated for the same container is written once per `REPEAT_MS`. One per session.
 */
export function kubeletEventLogger(log: vscode.LogOutputChannel): (session: ProbingSession, event: Extract<EngineEvent, { type: 'event' }>) => void {
  const written = new Map<string, { message: string; at: number }>();
  return (session, event) => {
    const where = event.container === undefined ? event.pod : `${event.pod}/${event.container}`;
    const key = `${where}\u0000${event.reason}\u0000${event.message.split(':')[0]}`;
    const now = Date.now();
    const last = written.get(key);
    if (last && last.message === event.message && now - last.at < REPEAT_MS) return;
    written.set(key, { message: event.message, at: now });
    const line = `[${session.label} t=${event.t.toFixed(1)}s] ${where} ${event.reason}: ${event.message}`;
    if (event.eventType === 'Warning') log.warn(line);
    else log.info(line);
  };
}
