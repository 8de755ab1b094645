import type { Clock } from '../engine/clock';
import type { Disposable } from '../engine/disposable';
import type { EngineEvent, EventSink } from '../engine/events';

/**
 * How long ours and the kubelet's readiness may differ before it is said: the two probe on their
 * own schedules, up to a period apart, and the watch reports the kubelet's a moment later.
 */
const DISAGREEMENT_AFTER_MS = 20_000;

/** Per container: the two verdicts, and the evidence that may explain a difference. */
interface Verdicts {
  ours: boolean | undefined;
  kubelet: boolean | undefined;
  /** Our last readiness attempt's failure output. */
  ourFailure: string | undefined;
  /** The cluster's last `Readiness probe failed: …` for the container. */
  kubeletFailure: string | undefined;
  differsSince: number | undefined;
  timer: Disposable | undefined;
  said: 'open' | undefined;
}

export interface Explanation {
  readonly cause: 'loopback-only' | 'pod-ip-only' | 'host-or-source' | 'kubelet-timeout' | 'unexplained';
  readonly message: string;
}

/**
 * Compares, per container, the readiness our probes conclude (through port-forward) with the
 * readiness the cluster's kubelet reports, and says when they have disagreed for a while, with
 * the likeliest reason (a `disagreement` line), and when they agree again. It reads the event
 * stream (`see`) and writes to `emit`.
 */
export class VerdictComparer implements Disposable {
  private readonly containers = new Map<string, Verdicts>();

  constructor(
    private readonly clock: Clock,
    private readonly epoch: number,
    private readonly emit: EventSink,
    private readonly afterMs = DISAGREEMENT_AFTER_MS,
  ) {}

  see(event: EngineEvent): void {
    switch (event.type) {
      case 'status':
        return this.update(event.pod, event.container, (v) => (v.ours = event.ready));
      case 'kubelet':
        if (event.container !== undefined) this.update(event.pod, event.container, (v) => (v.kubelet = event.ready));
        return;
      case 'attempt':
        if (event.probe === 'readiness') this.update(event.pod, event.container, (v) => (v.ourFailure = event.outcome === 'failure' ? event.output : undefined));
        return;
      case 'clusterEvent':
        if (event.container !== undefined && event.reason === 'Unhealthy' && event.message.startsWith('Readiness probe failed:')) this.update(event.pod, event.container, (v) => (v.kubeletFailure = event.message));
        return;
      default:
        return;
    }
  }

  dispose(): void {
    for (const verdicts of this.containers.values()) verdicts.timer?.dispose();
    this.containers.clear();
  }

  private update(pod: string, container: string, change: (verdicts: Verdicts) => void): void {
    const key = `${pod}\u0000${container}`;
    let verdicts = this.containers.get(key);
    if (!verdicts) this.containers.set(key, (verdicts = { ours: undefined, kubelet: undefined, ourFailure: undefined, kubeletFailure: undefined, differsSince: undefined, timer: undefined, said: undefined }));
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
    v.differsSince = this.clock.now();
    v.timer = this.clock.schedule(this.afterMs, () => {
      v.timer = undefined;
      if (v.said === 'open' || v.ours === v.kubelet) return;
      v.said = 'open';
      this.say(pod, container, v, 'open', explain(container, v.ours === true, v.ourFailure, v.kubeletFailure));
    });
  }

  private say(pod: string, container: string, v: Verdicts, state: 'open' | 'resolved', explanation: Explanation): void {
    this.emit({ type: 'disagreement', t: (this.clock.now() - this.epoch) / 1000, pod, container, state, ours: v.ours === true, kubelet: v.kubelet === true, ...explanation });
  }
}

/**
 * The likeliest reason the two verdicts differ, from what each side last said. Port-forward
 * connects to `localhost:PORT` inside the pod's network namespace; the kubelet dials the pod IP.
 */
export function explain(container: string, oursReady: boolean, ourFailure: string | undefined, kubeletFailure: string | undefined): Explanation {
  if (oursReady) {
    if (kubeletFailure && /connection refused/.test(kubeletFailure)) {
      return {
        cause: 'loopback-only',
        message: `the kubelet says ${container} is not Ready (its probe of the pod IP is refused) while ours pass through port-forward, which reaches the pod's loopback: the app likely listens on 127.0.0.1 only. Make it listen on 0.0.0.0 (or the pod IP).`,
      };
    }
    if (kubeletFailure && /(deadline exceeded|timeout|timed out)/i.test(kubeletFailure)) {
      return { cause: 'kubelet-timeout', message: `the kubelet's readiness probe of ${container} times out while ours pass: the node, or the app under the kubelet's load, answers slower than timeoutSeconds. ${kubeletFailure}` };
    }
    return { cause: 'unexplained', message: `the kubelet says ${container} is not Ready while our probes pass${kubeletFailure ? `; its last word: ${kubeletFailure}` : ' (it reported no failure event)'}` };
  }
  if (ourFailure && /connection refused/.test(ourFailure)) {
    return {
      cause: 'pod-ip-only',
      message: `our probes of ${container} are refused on the pod's loopback (port-forward) while the kubelet, dialling the pod IP, finds it Ready: the app likely listens on the pod IP only, not on 127.0.0.1.`,
    };
  }
  if (ourFailure && /statuscode/.test(ourFailure)) {
    return {
      cause: 'host-or-source',
      message: `${container} answers the kubelet but fails ours (${ourFailure}): the app may decide on the source address (ours come from inside the pod) or on a header. Check what it allows.`,
    };
  }
  return { cause: 'unexplained', message: `the kubelet says ${container} is Ready while our probes fail${ourFailure ? `: ${ourFailure}` : ''}` };
}
