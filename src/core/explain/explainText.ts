import type { EngineEvent } from '../engine/events';
import type { ProbeType } from '../manifest';
import { clip } from '../text/sentence';
import type { AttemptLine } from '../history/history';

/**
 * The words explanations are made of, in the kubelet's terms: what a failure was (`HTTP 503`,
 * `connection refused`), what a prober error means (`the named port metrics is not declared`),
 * counts (`twice`, `3 times`), and one line of the recording in a few words (a cited line).
 */

/** `once`, `twice`, `3 times`. */
export function times(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}

/** `1st`, `2nd`, `3rd`, `11th`. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** `startupProbe`, `readiness`, `liveness`: how the sentences name a probe (the startup probe by its field, as its budget is read there). */
export function probeName(type: ProbeType): string {
  return type === 'startup' ? 'startupProbe' : type;
}

/** `Readiness`: a probe's name opening a sentence. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What made an attempt fail, in a few words: `HTTP 503`, `connection refused`, `timeout`, `NOT_SERVING`. */
export function failureKind(attempt: AttemptLine): string {
  const output = attempt.output;
  if (attempt.outcome === 'unknown') return 'unknown result';
  const status = /statuscode: (\d+)/.exec(output);
  if (status) return `HTTP ${status[1]}`;
  if (/connection refused/.test(output)) return 'connection refused';
  if (/connection reset/.test(output)) return 'connection reset';
  if (/context deadline exceeded|i\/o timeout|timed out|Client\.Timeout|did not complete within|within \S+: /.test(output)) return 'timeout';
  const grpc = /responded with "(\w+)"/.exec(output);
  if (grpc) return grpc[1] as string;
  if (/stopped after 10 redirects/.test(output)) return 'redirect loop';
  if (/no such host/.test(output)) return 'unknown host';
  if (output.trim() === '') return 'failed';
  return clip(output.replace(/\s+/g, ' ').trim(), 60);
}

/** The distinct kinds of failure among attempts, in the order they first came: `connection refused, timeout`. */
export function failureKinds(attempts: readonly AttemptLine[]): string {
  const kinds: string[] = [];
  for (const attempt of attempts) {
    const kind = failureKind(attempt);
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  return kinds.join(', ');
}

/**
 * A prober error (P5) as the reason a probe never counts: `the readiness probe's named port
 * \`metrics\` is not declared by this container` (N2–N3), `… has no handler` (P1), else the error.
 */
export function proberErrorWords(type: ProbeType, error: string): string {
  const named = /^strconv\.Atoi: parsing "(.*)": invalid syntax$/.exec(error);
  if (named) return `the ${type} probe's named port \`${named[1]}\` is not declared by this container`;
  const invalid = /^invalid port number: (.*)$/.exec(error);
  if (invalid) return `the ${type} probe's port ${invalid[1]} is not a valid port number`;
  if (error.startsWith('missing probe handler')) return `the ${type} probe has no handler`;
  return `every ${type} attempt errors (${clip(error.replace(/\s+/g, ' ').trim(), 80)})`;
}

/** One line of a recording in a few words, for a cited line: `readiness failure: HTTP probe failed with statuscode: 503`. */
export function lineSummary(event: EngineEvent): string {
  switch (event.type) {
    case 'attempt': {
      const what = event.error !== undefined ? `error: ${event.error}` : event.output ? `${event.outcome}: ${event.output}` : event.outcome;
      return oneLine(`${event.probe} ${what}${event.paused ? ' (paused in the debugger)' : ''}`);
    }
    case 'result':
      return `${event.probe} ${event.value}`;
    case 'event':
      return oneLine(`${event.reason}: ${event.message}`);
    case 'container':
      return oneLine(`${event.state}${event.reason ? ` (${event.reason})` : ''} ${event.containerId || '(no container)'} restartCount ${event.restartCount}${event.message ? `: ${event.message}` : ''}`);
    case 'status':
      return `${event.started ? 'started' : 'not started'}, ${event.ready ? 'ready' : 'not ready'}`;
    case 'pod':
      return `pod ${event.ready ? 'Ready' : 'NotReady'}`;
    case 'worker':
      return `${event.probe} ${event.handler} · initialDelaySeconds ${event.initialDelaySeconds}, periodSeconds ${event.periodSeconds}, timeoutSeconds ${event.timeoutSeconds}, successThreshold ${event.successThreshold}, failureThreshold ${event.failureThreshold}`;
    case 'pause':
      return `${event.state} by debug session ${event.debugSession}`;
    case 'kubelet':
      return `the cluster's kubelet: ${event.started === undefined ? '' : event.started ? 'started, ' : 'not started, '}${event.ready ? 'ready' : 'not ready'}${event.restartCount !== undefined ? `, restartCount ${event.restartCount}` : ''}`;
    case 'prediction':
      return oneLine(`${event.probe} ${event.state}: ${event.message}`);
    case 'disagreement':
      return oneLine(`${event.state} (${event.cause}): ours ${event.ours ? 'ready' : 'not ready'}, the kubelet's ${event.kubelet ? 'ready' : 'not ready'}: ${event.message}`);
    case 'clusterEvent':
      return oneLine(`${event.reason}: ${event.message}`);
    case 'target':
      return `probed through ${event.clusterPod} in ${event.namespace}`;
    case 'tunnel':
      return `tunnel ${event.state} ${event.local} → ${event.remote}`;
  }
}

function oneLine(text: string): string {
  return clip(text.replace(/\s+/g, ' ').trim(), 200);
}
