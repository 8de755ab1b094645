import type { Clock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import type { EngineEvent, EventSink } from '../engine/events';
import { type Explanation, explainDisagreement } from './disagreementCause';
import { type RuntimeFacts, UNKNOWN_RUNTIME } from './nodeRuntime';

/**
 * How long ours and the kubelet's readiness may differ before it is said: the two probe on their
 * own schedules, up to a period apart, and the watch reports the kubelet's a moment later.
 */
const DISAGREEMENT_AFTER_MS = 20_000;

/** Per container: the two verdicts, and the evidence that may explain a difference. */
interface Verdicts {
  ours: boolean | undefined;
  kubelet: boolean | undefined;
  /** Our last readiness attempt's failure output, when it was an answer. */
  ourFailure: string | undefined;
  /** Our last readiness attempt's error, while no answer came after it; and when (clock ms) an attempt last got an answer. */
  ourError: string | undefined;
  answeredAt: number | undefined;
  /** The cluster's last `Readiness probe failed: …` for the container. */
  kubeletFailure: string | undefined;
  /** The runtime's own words the last time it refused our port-forward of the container. */
  runtimeRefusal: string | undefined;
  differsSince: number | undefined;
  timer: Disposable | undefined;
  said: 'open' | undefined;
}

export type { Explanation } from './disagreementCause';

/**
 * Compares, per container, the readiness our probes conclude (through port-forward) with the
 * readiness the cluster's kubelet reports, and says when they have disagreed for a while, with
 * the likeliest reason (a `disagreement` line), and when they agree again. It reads the event
 * stream (`see`), what the pod runs on (`runtimeOf`) and the runtime's refusals of our
 * port-forwards (`seeRuntimeRefusal`), and writes to `emit`.
 */
export class VerdictComparer implements Disposable {
  private readonly containers = new Map<string, Verdicts>();

  constructor(
    private readonly clock: Clock,
    private readonly epoch: number,
    private readonly emit: EventSink,
    private readonly afterMs = DISAGREEMENT_AFTER_MS,
    /** The runtime facts of a pod (by the engine's name for it), as known when a disagreement is said. */
    private readonly runtimeOf: (pod: string) => RuntimeFacts = () => UNKNOWN_RUNTIME,
  ) {}

  see(event: EngineEvent): void {
    switch (event.type) {
      case 'status':
        return this.update(event.pod, event.container, (v) => (v.ours = event.ready));
      case 'kubelet':
        if (event.container !== undefined) this.update(event.pod, event.container, (v) => (v.kubelet = event.ready));
        return;
      case 'attempt':
        if (event.probe === 'readiness') this.update(event.pod, event.container, (v) => this.sawAttempt(v, event));
        return;
      case 'clusterEvent':
        if (event.container !== undefined && event.reason === 'Unhealthy' && event.message.startsWith('Readiness probe failed:')) this.update(event.pod, event.container, (v) => (v.kubeletFailure = event.message));
        return;
      default:
        return;
    }
  }

  /** What the runtime said when it refused our port-forward to a container's port (its error channel). */
  seeRuntimeRefusal(pod: string, container: string, text: string): void {
    this.verdicts(pod, container).runtimeRefusal = text;
  }

  dispose(): void {
    for (const verdicts of this.containers.values()) verdicts.timer?.dispose();
    this.containers.clear();
  }

  private sawAttempt(v: Verdicts, attempt: Extract<EngineEvent, { type: 'attempt' }>): void {
    if (attempt.error !== undefined) {
      v.ourError = attempt.error;
      return;
    }
    v.answeredAt = this.clock.now();
    v.ourError = undefined;
    v.ourFailure = attempt.outcome === 'failure' ? attempt.output : undefined;
  }

  private verdicts(pod: string, container: string): Verdicts {
    const key = `${pod}\u0000${container}`;
    let verdicts = this.containers.get(key);
    if (!verdicts) {
      verdicts = { ours: undefined, kubelet: undefined, ourFailure: undefined, ourError: undefined, answeredAt: undefined, kubeletFailure: undefined, runtimeRefusal: undefined, differsSince: undefined, timer: undefined, said: undefined };
      this.containers.set(key, verdicts);
    }
    return verdicts;
  }

  private update(pod: string, container: string, change: (verdicts: Verdicts) => void): void {
    const verdicts = this.verdicts(pod, container);
    change(verdicts);
    this.decide(pod, container, verdicts);
  }

  /** One decision: start waiting out a difference, say it, or say it is over. */
  private decide(pod: string, container: string, v: Verdicts): void {
    const differ = v.ours !== undefined && v.kubelet !== undefined && v.ours !== v.kubelet;
    if (!differ) {
      v.timer?.dispose();
      v.timer = undefined;
      v.differsSince = undefined;
      if (v.said === 'open' && v.ours !== undefined && v.kubelet !== undefined) {
        v.said = undefined;
        this.say(pod, container, v, 'resolved', { cause: 'unexplained', message: `our probes and the kubelet agree again: ${v.ours ? 'Ready' : 'not Ready'}` });
      }
      return;
    }
    if (v.differsSince !== undefined) return;
    const since = (v.differsSince = this.clock.now());
    v.timer = this.clock.schedule(this.afterMs, () => {
      v.timer = undefined;
      if (v.said === 'open' || v.ours === v.kubelet) return;
      v.said = 'open';
      // The last attempt errored and none has got an answer since the two began to differ: ours could not run.
      const unanswered = v.ourError !== undefined && (v.answeredAt === undefined || v.answeredAt < since);
      this.say(
        pod,
        container,
        v,
        'open',
        explainDisagreement({
          container,
          oursReady: v.ours === true,
          ourFailure: v.ourFailure,
          ourErrorOnly: unanswered ? v.ourError : undefined,
          kubeletFailure: v.kubeletFailure,
          runtime: this.runtimeOf(pod),
          runtimeRefusal: v.runtimeRefusal,
        }),
      );
    });
  }

  private say(pod: string, container: string, v: Verdicts, state: 'open' | 'resolved', explanation: Explanation): void {
    this.emit({ type: 'disagreement', t: (this.clock.now() - this.epoch) / 1000, pod, container, state, ours: v.ours === true, kubelet: v.kubelet === true, ...explanation });
  }
}

