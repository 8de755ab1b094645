import { killGraceSeconds, livenessKillSeconds, MIN_STARTUP_BUDGET_SECONDS, startupBudgetSeconds, toleranceSeconds } from './formulas';
import { resolveContainerPort } from '../../manifest/ports';
import { writtenInProbe } from '../../manifest/written';
import type { ContainerModel, ProbeHandler, ProbeModel } from '../../manifest';
import { probeRange } from '../locate';
import { serviceName, servicesSelecting } from '../services';
import { type ContainerRule, type Fix, type Issue, PROBING_CONTAINERS, type ProbeRule, type RuleContext } from '../types';

/** The formulas of docs/spec/validation-rules.md §C applied as checks (§D 10–16). */
const timing = { category: 'timing' } as const;
const containerTiming = { ...timing, scope: 'container', kinds: PROBING_CONTAINERS } as const;

export const L10: ContainerRule = {
  ...containerTiming,
  id: 'L10',
  severity: 'warning',
  title: 'Without a startupProbe, liveness can kill the container before readiness even starts probing.',
  reference: 'validation-rules.md §C (K_live), §D.10',
  check(container, context) {
    const liveness = container.probe('liveness');
    if (!liveness || container.probe('startup')) return [];
    const kill = livenessKillSeconds(liveness.effective);
    const readinessDelay = container.probe('readiness')?.effective.initialDelaySeconds ?? 0;
    const expected = context.expectedStartupSeconds;
    const issue = (message: string): Issue[] => [{ path: liveness.path, range: liveness.keyRange, message }];
    if (expected !== undefined && kill < expected) {
      return issue(`liveness can kill the container ${kill} s after it starts (initialDelaySeconds + failureThreshold × periodSeconds), before the ${expected} s it needs to start: add a startupProbe that allows for the start-up`);
    }
    if (kill < readinessDelay) {
      return issue(`liveness can kill the container ${kill} s after it starts, before readiness even begins at ${readinessDelay} s (its initialDelaySeconds): the app is restarted before it can be Ready; add a startupProbe`);
    }
    return [];
  },
};

export const L11: ContainerRule = {
  ...containerTiming,
  id: 'L11',
  severity: 'warning',
  title: 'The startupProbe gives a slow start no more time than liveness alone would, or less than 10 s.',
  reference: 'validation-rules.md §C (B_start), §D.11',
  check(container) {
    const startup = container.probe('startup');
    if (!startup) return [];
    const budget = startupBudgetSeconds(startup.effective);
    const liveness = container.probe('liveness');
    const issue = (message: string): Issue[] => [{ path: startup.path, range: startup.keyRange, message }];
    const alone = liveness && livenessKillSeconds(liveness.effective);
    if (alone !== undefined && budget < alone) {
      return issue(`the startupProbe kills a container that has not started within ${budget} s, sooner than liveness alone would (${alone} s): it gives a slow start less time, not more; give it a failureThreshold that covers the slowest start`);
    }
    if (alone !== undefined && budget === alone) {
      return issue(`the startup budget (${budget} s) is the same as liveness's own: the startupProbe gives a slow start no more time than liveness alone would; raise its failureThreshold to cover the slowest start`);
    }
    if (budget < MIN_STARTUP_BUDGET_SECONDS) return issue(`the startup budget is only ${budget} s (initialDelaySeconds + failureThreshold × periodSeconds): a slow start gets the container killed`);
    return [];
  },
};

export const L12: ProbeRule = {
  ...timing,
  scope: 'probe',
  id: 'L12',
  severity: 'warning',
  title: 'timeoutSeconds > periodSeconds: hanging attempts run back to back and stretch the failure window to about failureThreshold × timeoutSeconds.',
  reference: 'validation-rules.md §C, §D.12; kubelet-probes.md W3',
  check(probe) {
    const { timeoutSeconds, periodSeconds, failureThreshold } = probe.effective;
    // timeoutSeconds == periodSeconds is harmless: a tick missed while an attempt runs is kept
    // (W3), so the next attempt starts as the slow one ends and f failures still take f × p.
    if (timeoutSeconds <= periodSeconds || periodSeconds <= 0 || failureThreshold <= 0) return [];
    const field = probe.locate('timeoutSeconds') ? 'timeoutSeconds' : 'periodSeconds';
    const act = probe.type === 'readiness' ? 'marks it unready' : probe.type === 'liveness' ? 'restarts the container' : 'gives up on the start-up';
    const fixes = lowerTimeoutFixes(probe);
    return [
      {
        ...(fixes.length > 0 ? { fixes } : {}),
        path: `${probe.path}.${field}`,
        range: probeRange(probe, field),
        message: `timeoutSeconds (${timeoutSeconds}) is longer than periodSeconds (${periodSeconds}): while an attempt hangs, the ticks it misses collapse into one and the next attempt starts as it times out, so hanging attempts come every ${timeoutSeconds} s and the kubelet ${act} after about ${failureThreshold} × ${timeoutSeconds} = ${failureThreshold * timeoutSeconds} s of failures, not ${failureThreshold} × ${periodSeconds} = ${failureThreshold * periodSeconds} s`,
      },
    ];
  },
};

/**
 * L12's fix: timeoutSeconds one under periodSeconds, so a hanging attempt ends before the next
 * tick (docs/spec/validation-rules.md §C flags t ≥ p), and at least 1: the least that means itself (0 is
 * defaulted to 1, §B; below 0 is P09). Only where timeoutSeconds is written in the probe itself:
 * an alias's anchor is shared.
 */
function lowerTimeoutFixes(probe: ProbeModel): Fix[] {
  const written = writtenInProbe(probe, 'timeoutSeconds');
  const lowered = Math.max(1, probe.effective.periodSeconds - 1);
  if (!written || lowered >= probe.effective.timeoutSeconds) return [];
  return [{ title: `Lower timeoutSeconds to ${lowered}`, edits: [{ range: written.value, newText: String(lowered) }] }];
}

export const L13: ContainerRule = {
  ...containerTiming,
  id: 'L13',
  severity: 'warning',
  title: 'On the same endpoint, liveness gives up no later than readiness: restarted before (or as) it is taken out of rotation.',
  reference: 'validation-rules.md §C, §D.13',
  // Whether a Service selects the pod decides what "unready" means for it.
  acrossDocuments: true,
  check(container, context) {
    const pair = sameEndpointPair(container);
    if (!pair || identical(pair.liveness, pair.readiness)) return [];
    const live = toleranceSeconds(pair.liveness.effective);
    const ready = toleranceSeconds(pair.readiness.effective);
    if (live > ready) return [];
    const rotation = rotationOf(container, context);
    const message =
      live === ready
        ? `liveness and readiness probe the same endpoint and both give up after ${live} s of failures: an overloaded container is ${rotation.out} and restarted at about the same moment, ${rotation.seen ? 'with no time to recover out of rotation' : `so a Service that selects it has no time to take it out of rotation and let it recover (${NONE_SEEN})`}; give liveness a higher failureThreshold`
        : `liveness and readiness probe the same endpoint, and liveness gives up after ${live} s of failures while readiness takes ${ready} s: an overloaded container is restarted before it is ${rotation.out}${rotation.seen ? '' : `, so a Service that selects it never takes it out of rotation to recover (${NONE_SEEN})`}; give liveness a higher failureThreshold`;
    return [{ path: pair.liveness.path, range: pair.liveness.keyRange, message }];
  },
};

export const L14: ContainerRule = {
  ...containerTiming,
  id: 'L14',
  severity: 'warning',
  title: 'Liveness is identical to readiness (same resolved endpoint, headers and timings).',
  reference: 'validation-rules.md §D.14',
  acrossDocuments: true,
  check(container, context) {
    const pair = sameEndpointPair(container);
    if (!pair || !identical(pair.liveness, pair.readiness)) return [];
    const rotation = rotationOf(container, context);
    return [
      {
        path: pair.liveness.path,
        range: pair.liveness.keyRange,
        message: `liveness is identical to readiness: the moment the app is too busy to answer it is both ${rotation.out} and restarted, which turns load into restarts${rotation.seen ? '' : ` (a Service that selects it never gets to take it out of rotation first; ${NONE_SEEN})`}; keep the endpoint but give liveness a higher failureThreshold`,
      },
    ];
  },
};

/** When no Service is seen to select the pod, "out of rotation" is only what would happen if one did. */
const NONE_SEEN = 'none among the manifests checked does';

/**
 * What failing readiness does to this pod, in words: taken out of the endpoints of the Services
 * seen to select it, or, when none among the manifests checked does, marked unready (a Service
 * elsewhere may still select it, and the message says what would then hold).
 */
function rotationOf(container: ContainerModel, context: RuleContext): { out: string; seen: boolean } {
  const services = servicesSelecting(container.pod, context.services);
  const [first] = services;
  if (!first) return { out: 'marked unready', seen: false };
  return { out: `taken out of the endpoints of ${services.length === 1 ? serviceName(first) : `${services.length} Services`}`, seen: true };
}

export const L15: ContainerRule = {
  ...containerTiming,
  id: 'L15',
  severity: 'info',
  title: 'A startupProbe without a livenessProbe: once the container has started, nothing restarts it if it hangs.',
  reference: 'validation-rules.md §D.15; kubelet-probes.md K2, W9',
  check(container) {
    const startup = container.probe('startup');
    if (!startup || container.probe('liveness')) return [];
    return [
      {
        path: startup.path,
        range: startup.keyRange,
        message: `a startupProbe without a livenessProbe: a container that does not start within ${startupBudgetSeconds(startup.effective)} s is killed and restarted, but once it has started nothing checks it again, so a hang after start-up is never restarted; add a livenessProbe if the app can hang`,
      },
    ];
  },
};

/** Below this, a liveness initial delay next to a startupProbe is not worth a remark. */
const LARGE_INITIAL_DELAY_SECONDS = 10;

export const L28: ContainerRule = {
  ...containerTiming,
  id: 'L28',
  severity: 'info',
  title: "Liveness initialDelaySeconds next to a startupProbe is usually redundant.",
  reference: 'validation-rules.md §D.15; kubelet-probes.md W6, X2',
  check(container) {
    const liveness = container.probe('liveness');
    if (!liveness || !container.probe('startup') || liveness.effective.initialDelaySeconds < LARGE_INITIAL_DELAY_SECONDS) return [];
    return [
      {
        path: `${liveness.path}.initialDelaySeconds`,
        range: probeRange(liveness, 'initialDelaySeconds'),
        message: `liveness does not run before the startupProbe succeeds anyway, and its initialDelaySeconds (${liveness.effective.initialDelaySeconds}) counts from container start, not from that success: with a startupProbe it is usually redundant`,
      },
    ];
  },
};

export const L27: ProbeRule = {
  ...timing,
  scope: 'probe',
  id: 'L27',
  severity: 'warning',
  title: 'Liveness failureThreshold: 1 restarts the container on a single slow or failed answer.',
  reference: 'validation-rules.md §D.13',
  check(probe) {
    if (probe.type !== 'liveness' || probe.effective.failureThreshold !== 1) return [];
    return [{ path: `${probe.path}.failureThreshold`, range: probeRange(probe, 'failureThreshold'), message: 'failureThreshold: 1 on liveness restarts the container after one slow or failed answer; 3 or more rides out a hiccup' }];
  },
};

export const L16: ProbeRule = {
  ...timing,
  scope: 'probe',
  id: 'L16',
  severity: 'info',
  title: "A probe's terminationGracePeriodSeconds is longer than the pod's (usually it is the other way round).",
  reference: 'validation-rules.md §D.16; kubelet-probes.md K3',
  check(probe) {
    const own = probe.effective.terminationGracePeriodSeconds;
    const pod = probe.container.pod.terminationGracePeriodSeconds;
    if (probe.type === 'readiness' || own === undefined || own <= pod) return [];
    return [
      {
        path: `${probe.path}.terminationGracePeriodSeconds`,
        range: probeRange(probe, 'terminationGracePeriodSeconds'),
        message: `a ${probe.type} kill waits ${killGraceSeconds(probe.effective, probe.container.pod)} s before SIGKILL, longer than the pod's own ${pod} s: the usual pattern is a long pod grace period and a short one on the probe`,
      },
    ];
  },
};

/** Liveness and readiness that hit the same place: same handler type and resolved target. */
function sameEndpointPair(container: ContainerModel): { liveness: ProbeModel; readiness: ProbeModel } | undefined {
  const liveness = container.probe('liveness');
  const readiness = container.probe('readiness');
  if (!liveness?.effective.handler || !readiness?.effective.handler) return undefined;
  const endpoint = (handler: ProbeHandler) => endpointKey(handler, container);
  return endpoint(liveness.effective.handler) === endpoint(readiness.effective.handler) ? { liveness, readiness } : undefined;
}

function endpointKey(handler: ProbeHandler, container: ContainerModel): string {
  const port = (p: number | string) => {
    const resolved = resolveContainerPort(p, container.spec);
    return resolved.ok ? resolved.port : `?${p}`;
  };
  switch (handler.type) {
    case 'exec':
      return JSON.stringify(['exec', handler.command]);
    case 'httpGet':
      return JSON.stringify(['http', handler.scheme, handler.host ?? '', port(handler.port), handler.path]);
    case 'tcpSocket':
      return JSON.stringify(['tcp', handler.host ?? '', port(handler.port)]);
    case 'grpc':
      return JSON.stringify(['grpc', handler.port, handler.service ?? '']);
  }
}

/** A pair from `sameEndpointPair` (so the endpoint already matches) with the same headers and timings. */
function identical(liveness: ProbeModel, readiness: ProbeModel): boolean {
  const a = liveness.effective;
  const b = readiness.effective;
  const headers = (h: ProbeHandler | undefined) => (h?.type === 'httpGet' ? JSON.stringify(h.httpHeaders.map((x) => [x.name.toLowerCase(), x.value])) : '');
  return (
    headers(a.handler) === headers(b.handler) &&
    a.initialDelaySeconds === b.initialDelaySeconds &&
    a.timeoutSeconds === b.timeoutSeconds &&
    a.periodSeconds === b.periodSeconds &&
    a.successThreshold === b.successThreshold &&
    a.failureThreshold === b.failureThreshold
  );
}
