import type { ContainerSummary, ProbeSummary } from '../session/summary';
import { resolveContainerPort } from '../k8s/ports';
import type { ContainerSpec, EffectiveProbe, IntOrString, ProbeHandler, ProbeModel, ProbeSpec } from '../manifest';
import type { Range } from '../text/range';
import { failureWindow, killGraceSeconds, livenessKillSeconds, recoverySeconds, startupBudgetSeconds, toleranceSeconds } from './timing';

/**
 * The words the editor shows for a probe or a container: code-lens titles and hover text. Pure
 * (no editor API) so every title is tested on plain values.
 */

/** `startup budget 310 s`, `liveness kills after 30 s`, `unready after 30 s failing`. */
export function staticProbeTitle(probe: ProbeModel): string {
  const effective = probe.effective;
  switch (probe.type) {
    case 'startup':
      return `startup budget ${seconds(startupBudgetSeconds(effective))}`;
    case 'liveness':
      // Behind a startupProbe, liveness only begins once the container has started (W7).
      return probe.container.probe('startup')
        ? `liveness kills after ${seconds(toleranceSeconds(effective))} failing`
        : `liveness kills after ${seconds(livenessKillSeconds(effective))}`;
    case 'readiness':
      return `unready after ${seconds(toleranceSeconds(effective))} failing`;
  }
}

/** `● ready · 12/12 ok · 4 ms`, `✖ failing 2/3`, `○ waiting`, `… 1 error`. */
export function liveProbeTitle(type: ProbeModel['type'], summary: ProbeSummary | undefined, failureThreshold: number): string {
  if (!summary || summary.attempts === 0) return '○ waiting for the first attempt';
  const failing = trailingFailures(summary.recent);
  if (failing > 0) return `✖ failing ${Math.min(failing, failureThreshold)}/${failureThreshold}`;
  const counts = `${summary.successes}/${summary.attempts} ok · ${Math.round(summary.lastDurationMs)} ms`;
  // Succeeding but not yet successThreshold times in a row: the result is still failure.
  if (summary.result !== 'Success') return `◐ not ${PASSED[type]} yet · ${counts}`;
  return `● ${PASSED[type]} · ${counts}`;
}

const PASSED = { liveness: 'alive', readiness: 'ready', startup: 'started' } as const;

/** `started · ready · restarts 2`, `not started · not ready · restarts 0 · CrashLoopBackOff`. */
export function containerStatusTitle(container: ContainerSummary): string {
  const parts = [container.started ? 'started' : 'not started', container.ready ? 'ready' : 'not ready', `restarts ${container.restartCount}`];
  if (container.reason) parts.push(container.reason);
  return parts.join(' · ');
}

/**
 * `httpGet http://:8080/healthz`, `tcpSocket :5432`, `exec cat /tmp/ready`, `grpc :9090`. With the
 * container, a named port shows the number it resolves to (N1): `httpGet http://:8080/healthz (port http)`.
 */
export function handlerTitle(handler: ProbeHandler | undefined, container?: Pick<ContainerSpec, 'ports'>): string {
  if (!handler) return 'no handler';
  switch (handler.type) {
    case 'httpGet':
      return `httpGet ${handler.scheme.toLowerCase()}://${handler.host ?? ''}:${portText(handler.port, container)}${handler.path.startsWith('/') ? '' : '/'}${handler.path}${namedPortNote(handler.port, container)}`;
    case 'tcpSocket':
      return `tcpSocket ${handler.host ?? ''}:${portText(handler.port, container)}${namedPortNote(handler.port, container)}`;
    case 'grpc':
      return `grpc :${handler.port}${handler.service ? ` service ${handler.service}` : ''}`;
    case 'exec':
      return `exec ${handler.command.join(' ')}`;
  }
}

function portText(port: IntOrString, container: Pick<ContainerSpec, 'ports'> | undefined): string {
  if (typeof port === 'number' || !container) return String(port);
  const resolved = resolveContainerPort(port, container);
  return resolved.ok ? String(resolved.port) : port;
}

function namedPortNote(port: IntOrString, container: Pick<ContainerSpec, 'ports'> | undefined): string {
  if (typeof port === 'number' || !container) return '';
  return resolveContainerPort(port, container).ok ? ` (port ${port})` : ` (port ${port} is not declared)`;
}

const TIMING_FIELDS: readonly (keyof EffectiveProbe & keyof ProbeSpec)[] = ['initialDelaySeconds', 'periodSeconds', 'timeoutSeconds', 'successThreshold', 'failureThreshold'];

/** Markdown for a probe's hover: effective values, timing analysis and, while probing, recent attempts. */
export function probeHoverMarkdown(probe: ProbeModel, live?: ProbeSummary): string {
  const lines = [`**${probe.type}Probe** of \`${probe.container.name}\` · ${escapeMarkdown(handlerTitle(probe.effective.handler, probe.container.spec))}`, '', '| field | value |', '|---|---|'];
  for (const field of TIMING_FIELDS) {
    const written = probe.spec[field] !== undefined;
    lines.push(`| ${field} | ${probe.effective[field]}${written ? '' : ' *(default)*'} |`);
  }
  lines.push('', ...timingLines(probe));
  if (live) lines.push('', ...liveLines(live));
  return lines.join('\n');
}

function timingLines(probe: ProbeModel): string[] {
  const effective = probe.effective;
  const window = failureWindow(effective);
  const tolerance = seconds(toleranceSeconds(effective));
  const within = `between ${seconds(window.earliest)} and ${seconds(window.latest)} after the container starts`;
  switch (probe.type) {
    case 'startup':
      return [`**Startup budget:** ${seconds(startupBudgetSeconds(effective))} (initialDelaySeconds + failureThreshold × periodSeconds). An app still not up is killed ${within}, then restarted with back-off. Liveness and readiness wait until it succeeds.`];
    case 'liveness': {
      const grace = seconds(killGraceSeconds(effective, probe.container.pod));
      const when = probe.container.probe('startup') ? `after ${tolerance} of failures once the startup probe has succeeded` : `${within} if it never succeeds`;
      return [`**Kills** the container ${when}; it then has ${grace} to stop (terminationGracePeriodSeconds).`];
    }
    case 'readiness':
      return [`**Out of endpoints** after ${tolerance} of failures; **back in** after ${seconds(recoverySeconds(effective))} of successes. The first attempt is ${seconds(effective.initialDelaySeconds)} after the container starts; until a success it is not ready.`];
  }
}

function liveLines(live: ProbeSummary): string[] {
  const marks = live.recent.map((r) => OUTCOME_MARKS[r]).join(' ');
  const lines = [`**Last ${live.recent.length} attempts:** ${marks || 'none yet'} (${live.successes}/${live.attempts} ok)`];
  if (live.lastError) lines.push(`**Last error:** ${escapeMarkdown(live.lastError)}`);
  else if (live.lastOutput) lines.push(`**Last output:** \`${live.lastOutput.slice(0, 200).replace(/`/g, "'")}\``);
  return lines;
}

/** One mark per attempt outcome, as hovers and the Probes view list the recent ones. */
export const OUTCOME_MARKS: Readonly<Record<ProbeSummary['recent'][number], string>> = { success: '●', warning: '◐', failure: '✖', unknown: '?' };

/** How many of the newest outcomes are failures; a prober error neither breaks nor extends the run (P5). */
export function trailingFailures(recent: readonly ProbeSummary['recent'][number][]): number {
  let n = 0;
  for (let i = recent.length - 1; i >= 0 && (recent[i] === 'failure' || recent[i] === 'unknown'); i--) if (recent[i] === 'failure') n++;
  return n;
}

function seconds(n: number): string {
  return `${n} s`;
}

export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** From the probe's key to the end of its value: where a hover or a tree selection finds the probe. */
export function probeExtent(probe: ProbeModel): Range {
  const value = probe.locate('');
  return { start: probe.keyRange.start, end: value ? value.value.end : probe.keyRange.end };
}

