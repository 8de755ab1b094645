import type { ProbeType } from '../manifest';
import type { ProbeOutcome } from '../probers/types';
import { probeTypeTitle } from './events';
import type { AttemptVerdict } from './worker';

/** `maxProbeRetries` (P2). */
const MAX_PROBE_TRIES = 3;

/** Starts one handler call; settles once through `done`. */
export type HandlerCall = (done: (outcome: ProbeOutcome) => void) => void;

/**
 * P2: call the handler again only while it returns an *error* (never on failure), at most three
 * times. One instance serves every attempt of a probe, so the hot path allocates nothing.
 */
export class RetryingCall {
  private tries = 0;
  private done: ((outcome: ProbeOutcome, tries: number) => void) | undefined;
  private readonly onOutcome = (outcome: ProbeOutcome) => this.settle(outcome);

  constructor(private readonly handler: { call: HandlerCall }) {}

  run(done: (outcome: ProbeOutcome, tries: number) => void): void {
    this.tries = 1;
    this.done = done;
    this.handler.call(this.onOutcome);
  }

  private settle(outcome: ProbeOutcome): void {
    if (outcome.error !== undefined && this.tries < MAX_PROBE_TRIES) {
      this.tries++;
      this.handler.call(this.onOutcome);
      return;
    }
    const done = this.done;
    this.done = undefined;
    done?.(outcome, this.tries);
  }
}

export function runWithRetries(call: HandlerCall, done: (outcome: ProbeOutcome, tries: number) => void): void {
  new RetryingCall({ call }).run(done);
}

export interface KubeletEventText {
  readonly reason: 'Unhealthy' | 'ProbeWarning';
  readonly message: string;
}

/**
 * P3: a prober outcome as the worker counts it, with the kubelet's event. An error is discarded
 * by the worker (P5); `unknown` without an error counts as a Failure and records no event.
 */
const SUCCESS: AttemptVerdict = { result: 'Success' };
const FAILURE: AttemptVerdict = { result: 'Failure' };
const QUIET_SUCCESS = { verdict: SUCCESS } as const;
const QUIET_FAILURE = { verdict: FAILURE } as const;

export function verdictOf(type: ProbeType, outcome: ProbeOutcome): { readonly verdict: AttemptVerdict; readonly event?: KubeletEventText } {
  if (outcome.error !== undefined) {
    return { verdict: { error: outcome.error }, event: { reason: 'Unhealthy', message: `${probeTypeTitle(type)} probe errored and resulted in ${outcome.result} state: ${outcome.error}` } };
  }
  switch (outcome.result) {
    case 'success':
      return QUIET_SUCCESS;
    case 'warning':
      return { verdict: SUCCESS, event: { reason: 'ProbeWarning', message: `${probeTypeTitle(type)} probe warning: ${outcome.output}` } };
    case 'failure':
      return { verdict: FAILURE, event: { reason: 'Unhealthy', message: `${probeTypeTitle(type)} probe failed: ${outcome.output}` } };
    case 'unknown':
      return QUIET_FAILURE;
  }
}

/**
 * What an attempt says to the user: the kubelet's event text when it records one, else
 * `Readiness probe succeeded[: output]`, or `… failed[: output]` for an `unknown` outcome.
 */
export function attemptMessage(type: ProbeType, outcome: ProbeOutcome): string {
  return verdictOf(type, outcome).event?.message ?? `${probeTypeTitle(type)} probe ${outcome.result === 'unknown' ? 'failed' : 'succeeded'}${outcome.output ? `: ${outcome.output}` : ''}`;
}
