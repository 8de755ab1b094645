import type { ProbeType } from '../manifest';
import type { ProbeOutcome } from '../probers/types';
import { probeTypeTitle } from './events';
import type { AttemptVerdict } from './worker';

/** `maxProbeRetries` (P2). */
export const MAX_PROBE_TRIES = 3;

/** Starts one handler call; settles once through `done`. */
export type HandlerCall = (done: (outcome: ProbeOutcome) => void) => void;

/** P2: call the handler again only while it returns an *error* (never on failure), at most three times. */
export function runWithRetries(call: HandlerCall, done: (outcome: ProbeOutcome, tries: number) => void, tries = 1): void {
  call((outcome) => {
    if (outcome.error !== undefined && tries < MAX_PROBE_TRIES) runWithRetries(call, done, tries + 1);
    else done(outcome, tries);
  });
}

export interface KubeletEventText {
  readonly reason: 'Unhealthy' | 'ProbeWarning';
  readonly message: string;
}

/**
 * P3: a prober outcome as the worker counts it, with the kubelet's event. An error is discarded
 * by the worker (P5); `unknown` without an error counts as a Failure and records no event.
 */
export function verdictOf(type: ProbeType, outcome: ProbeOutcome): { readonly verdict: AttemptVerdict; readonly event?: KubeletEventText } {
  const title = probeTypeTitle(type);
  if (outcome.error !== undefined) {
    return { verdict: { error: outcome.error }, event: { reason: 'Unhealthy', message: `${title} probe errored and resulted in ${outcome.result} state: ${outcome.error}` } };
  }
  switch (outcome.result) {
    case 'success':
      return { verdict: { result: 'Success' } };
    case 'warning':
      return { verdict: { result: 'Success' }, event: { reason: 'ProbeWarning', message: `${title} probe warning: ${outcome.output}` } };
    case 'failure':
      return { verdict: { result: 'Failure' }, event: { reason: 'Unhealthy', message: `${title} probe failed: ${outcome.output}` } };
    case 'unknown':
      return { verdict: { result: 'Failure' } };
  }
}
