import type * as vscode from 'vscode';
import type { EngineEvent } from '../../core/engine/events';
import { clusterEventLine, disagreementSentence } from '../../core/session/clusterText';

/** The same event text for the same container is written again only after this long. */
const REPEAT_MS = 10_000;

/** What the output channel is told: our kubelet's events and, in a cluster, the cluster's beside them. */
export type LoggedEvent = Extract<EngineEvent, { type: 'event' | 'clusterEvent' | 'prediction' | 'disagreement' }>;

export function isLoggedEvent(event: EngineEvent): event is LoggedEvent {
  return event.type === 'event' || event.type === 'clusterEvent' || event.type === 'prediction' || event.type === 'disagreement';
}

/**
 * Writes a session's kubelet events (Unhealthy, ProbeWarning, Killing, BackOff) to the output
 * channel, warnings as warnings; in a cluster also the cluster's own events (`cluster:`), our
 * predictions and how they turned out, and disagreements with the kubelet. A probe failing every
 * second would bury everything else, so a message repeated for the same container is written
 * once per `REPEAT_MS`. One per session.
 */
export function kubeletEventLogger(log: vscode.LogOutputChannel): (session: { readonly label: string }, event: LoggedEvent) => void {
  const written = new Map<string, { message: string; at: number }>();
  return (session, event) => {
    const where = event.container === undefined ? event.pod : `${event.pod}/${event.container}`;
    const { text, warning } = wordsOf(event);
    const key = `${where}\u0000${event.type}\u0000${text.split(':')[0]}`;
    const now = Date.now();
    const last = written.get(key);
    if (last && last.message === text && now - last.at < REPEAT_MS) return;
    written.set(key, { message: text, at: now });
    const line = `[${session.label} t=${event.t.toFixed(1)}s] ${where} ${text}`;
    if (warning) log.warn(line);
    else log.info(line);
  };
}

/** One decision: an event's words on the output channel, and whether it is a warning. */
function wordsOf(event: LoggedEvent): { text: string; warning: boolean } {
  switch (event.type) {
    case 'event':
      return { text: `${event.reason}: ${event.message}`, warning: event.eventType === 'Warning' };
    case 'clusterEvent':
      return { text: `cluster: ${clusterEventLine(event)}`, warning: event.eventType === 'Warning' };
    case 'prediction':
      return { text: `prediction ${event.state}: ${event.message}`, warning: event.state !== 'confirmed' };
    case 'disagreement':
      return event.state === 'open'
        ? { text: `disagreement with the cluster's kubelet (${event.cause}): ${disagreementSentence(event.message)}`, warning: true }
        : { text: `agreement with the cluster's kubelet again: ${event.message}`, warning: false };
  }
}
