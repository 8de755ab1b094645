import { clip } from '../text/sentence';
import { dialledAddresses, dialWords, type RuntimeFacts, runtimeWords } from './nodeRuntime';

/** Why our readiness and the cluster's kubelet's differ, as far as the evidence goes. */
export interface Explanation {
  readonly cause: 'ours-errored' | 'loopback-only' | 'pod-ip-only' | 'host-or-source' | 'kubelet-timeout' | 'unexplained';
  readonly message: string;
}

/** What each side last said of one container, and what the pod runs on. */
export interface DisagreementEvidence {
  readonly container: string;
  /** Ready by our probes. */
  readonly oursReady: boolean;
  /** Our last readiness failure that was an answer (`HTTP probe failed with statuscode: 503`, `dial tcp …: connect: connection refused`). */
  readonly ourFailure: string | undefined;
  /** Our last readiness error, when no attempt since the two began to differ got an answer at all. */
  readonly ourErrorOnly: string | undefined;
  /** The cluster's last `Readiness probe failed: …` for the container. */
  readonly kubeletFailure: string | undefined;
  readonly runtime: RuntimeFacts;
  /** The runtime's own words the last time it refused our port-forward (`… dial tcp4 127.0.0.1:8080: connect: connection refused …`). */
  readonly runtimeRefusal: string | undefined;
}

/**
 * One decision: the likeliest reason the verdicts differ. A port-forward is connected by the
 * node's runtime, to `localhost:PORT` inside the pod's network namespace (a newer containerd also
 * to the pod IPs); the kubelet dials the pod IP. Each cause is said only where the evidence holds
 * it up: ours that never ran say nothing about the app, and a pod under a RuntimeClass (a VM) may
 * be reached another way.
 */
export function explainDisagreement(evidence: DisagreementEvidence): Explanation {
  if (!evidence.oursReady && evidence.ourErrorOnly !== undefined) return oursErrored(evidence.container, evidence.ourErrorOnly);
  return evidence.oursReady ? kubeletFails(evidence) : oursFail(evidence);
}

function oursErrored(container: string, error: string): Explanation {
  return {
    cause: 'ours-errored',
    message: `our readiness probe of ${container} could not run (${clip(error, 200)}): an error is never counted, so ours stays at its initial Failure while the cluster's kubelet says Ready. This says nothing about the app: fix what stops our probe.`,
  };
}

/** Ours pass, the kubelet's fail. */
function kubeletFails(evidence: DisagreementEvidence): Explanation {
  const { container, kubeletFailure, runtime } = evidence;
  if (kubeletFailure && /connection refused/.test(kubeletFailure)) {
    if (runtime.runtimeClass) {
      return {
        cause: 'unexplained',
        message: `the kubelet says ${container} is not Ready (its probe of the pod IP is refused) while ours pass through port-forward. With a node's default runtime that means the app listens on 127.0.0.1 only, but this pod runs under RuntimeClass "${runtime.runtimeClass}", whose port-forward may reach the app another way: check which address the app listens on.`,
      };
    }
    return {
      cause: 'loopback-only',
      message: `the kubelet says ${container} is not Ready (its probe of the pod IP is refused) while ours pass through port-forward, which ${runtimeWords(runtime)} connects to 127.0.0.1 inside the pod: the app likely listens on 127.0.0.1 only. Make it listen on 0.0.0.0 (or the pod IP).`,
    };
  }
  if (kubeletFailure && /(deadline exceeded|timeout|timed out)/i.test(kubeletFailure)) {
    return { cause: 'kubelet-timeout', message: `the kubelet's readiness probe of ${container} times out while ours pass: the node, or the app under the kubelet's load, answers slower than timeoutSeconds. ${kubeletFailure}` };
  }
  return { cause: 'unexplained', message: `the kubelet says ${container} is not Ready while our probes pass${kubeletFailure ? `; its last word: ${kubeletFailure}` : ' (it reported no failure event)'}` };
}

/** Ours fail (with an answer), the kubelet's pass. */
function oursFail(evidence: DisagreementEvidence): Explanation {
  const { container, ourFailure, runtime, runtimeRefusal } = evidence;
  if (ourFailure && /connection refused/.test(ourFailure)) {
    const runtimeName = runtimeWords(runtime);
    if (runtimeRefusal && dialledAddresses(runtimeRefusal).other) {
      return {
        cause: 'unexplained',
        message: `our probes of ${container} are refused although ${runtimeName} dialled the pod IP as well as 127.0.0.1 (${clip(dialWords(runtimeRefusal), 200)}), while the kubelet, dialling the pod IP too, finds it Ready: the address the app listens on is not the cause; see why the pod refuses connections from the node's runtime.`,
      };
    }
    if (runtime.runtimeClass) {
      return {
        cause: 'unexplained',
        message: `our probes of ${container} are refused through port-forward while the kubelet finds it Ready: this pod runs under RuntimeClass "${runtime.runtimeClass}", and ${runtimeName} connects a port-forward to the sandbox's loopback, which a VM-isolated runtime does not share with the app. Our probes cannot judge this pod from outside the cluster.`,
      };
    }
    return {
      cause: 'pod-ip-only',
      message: `our probes of ${container} are refused on the pod's loopback, where ${runtimeName} connects the port-forward, while the kubelet, dialling the pod IP, finds it Ready: the app likely listens on the pod IP only, not on 127.0.0.1.`,
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
