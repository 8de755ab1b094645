import type { ProbeType } from '../manifest';
import type { AttemptLine, InstanceEndCause } from './history';
import { roundSeconds } from '../text/durations';

/**
 * Runs of consecutive failures of one probe once it has succeeded: what liveness's
 * `failureThreshold × periodSeconds` must ride out (docs/spec/validation-rules.md §C, deadlock detection).
 */

/** What ended a run of failures. */
export type BurstEnd =
  /** The probe succeeded again: the length is known. */
  | 'success'
  /** A debugger paused the app: what the app is answerable for ends there. */
  | 'pause'
  /** The kubelet killed the instance for this probe's failures (K2): cut short, length unknown. */
  | 'kill'
  /** The instance ended otherwise (another probe's kill, an exit, the pod's deletion): cut short. */
  | 'instance-end'
  /** The recording ended while it still failed. */
  | 'recording-end';

export interface FailureBurst {
  /** Failed attempts counted in it (prober errors are not: P5). */
  readonly failures: number;
  /** The start of its first failed attempt, seconds since the run began. */
  readonly from: number;
  /** The start of the attempt that ended it; when cut short, the end of its last failure. */
  readonly to: number;
  /** `to − from`: how long the app failed this probe, as sampled (n failures a period apart: n × period); a lower bound when the length is unknown. */
  readonly seconds: number;
  readonly end: BurstEnd;
  /** Its full length is known: it ended in a success, or where a debugger took over. */
  readonly lengthKnown: boolean;
  /** A `Killing` for this probe fell in it (carried out, or where kills are only reported, announced while the app ran on). */
  readonly killed: boolean;
  /** The period it was sampled at (the recorded config), when known. */
  readonly periodSeconds: number | undefined;
}

export interface BurstContext {
  readonly probe: ProbeType;
  /** What ended the stream of attempts, if anything did (see `AttemptStream`). */
  readonly endedBy: InstanceEndCause | undefined;
  /** When this probe's `Killing` events came, seconds since the run began. */
  readonly kills: readonly number[];
  readonly periodSeconds: number | undefined;
}

interface Open {
  failures: number;
  readonly from: number;
  lastEnd: number;
}

/**
 * Collects the bursts of a stream of attempts fed one by one, each with what the app made of it
 * (no array of verdicts is built: a day of a hundred pods is millions of attempts). Prober errors
 * neither end nor extend a burst: the kubelet discards them (P5).
 */
export class BurstCollector {
  readonly bursts: FailureBurst[] = [];
  private open: Open | undefined;

  constructor(private readonly context: BurstContext) {}

  add(attempt: AttemptLine, verdict: 'success' | 'failure' | 'error' | 'paused'): void {
    const start = attempt.t - attempt.durationMs / 1000;
    if (verdict === 'failure') {
      this.open ??= { failures: 0, from: start, lastEnd: attempt.t };
      this.open.failures++;
      this.open.lastEnd = attempt.t;
    } else if (this.open && (verdict === 'success' || verdict === 'paused')) {
      this.close(this.open, verdict === 'success' ? 'success' : 'pause', start);
      this.open = undefined;
    }
  }

  /** The stream ended: a burst still open was cut short by what ended it. */
  finish(): FailureBurst[] {
    const { open } = this;
    if (open) {
      const { endedBy } = this.context;
      this.close(open, endedBy === undefined ? 'recording-end' : endedBy === this.context.probe ? 'kill' : 'instance-end', open.lastEnd);
      this.open = undefined;
    }
    return this.bursts;
  }

  private close(burst: Open, end: BurstEnd, to: number): void {
    this.bursts.push({
      failures: burst.failures,
      from: roundSeconds(burst.from),
      to: roundSeconds(to),
      seconds: roundSeconds(to - burst.from),
      end,
      lengthKnown: end === 'success' || end === 'pause',
      killed: end === 'kill' || this.context.kills.some((k) => k >= burst.from && k <= to),
      periodSeconds: this.context.periodSeconds,
    });
  }
}
