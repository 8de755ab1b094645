import { resolveContainerPort } from '../manifest/ports';
import type { EffectiveProbe, ProbeHandler, ProbeModel, ProbeSpec, ProbeType } from '../manifest';
import { joinHostPort } from '../probers/goFormat';
import { formatProbeUrl } from '../probers/probeUrl';
import type { ProbeResult } from '../probers/types';
import { isShellProgram, shellWord } from '../rules/runtime/shellInvocation';
import { type HoverFinding, whyNeverActs } from './neverActs';
import type { ProbeSummary } from '../session/summary';
import { OUTCOME_MARKS } from './probeText';
import { escapeMarkdown } from '../text/markdown';
import { failureWindow, killGraceSeconds, recoverySeconds, startupBudgetSeconds, toleranceSeconds } from '../rules/timing/formulas';
import { sessionTime } from '../text/durations';

/**
 * The hover of a probe, as markdown: what the kubelet will do with it first (one or two lines of
 * verdict and timing, docs/spec/validation-rules.md §C), the address it probes, the last attempts while a
 * session runs, then the effective values. A probe that can never run says why instead of
 * giving timings that will never apply. Pure, so every text is tested on plain values.
 */

/** One attempt of a running session, with its time. */
export interface TimedAttempt {
  /** Seconds since the session began (virtual in a simulation). */
  readonly t: number;
  readonly outcome: ProbeResult;
  readonly durationMs: number;
  readonly error?: string;
  readonly output?: string;
}

/** What a session knows of the probe: its summary, and its latest attempts with their times when it keeps them. */
export interface LiveProbe extends ProbeSummary {
  /** Newest last. */
  readonly recentAttempts?: readonly TimedAttempt[];
  /** Every container instance's attempts (the counts above are the current instance's). */
  readonly total?: { readonly attempts: number; readonly successes: number };
}

/** How many attempts the hover lists, newest first. */
const ATTEMPTS_SHOWN = 5;
/** Where `<pod IP>` goes while the address is formatted as the kubelet formats it (H1). */
const POD_IP = 'pod-ip.invalid';
/** A port to format in place of a name that resolves to none, replaced afterwards. */
const NO_PORT = 65535;

export function probeHoverMarkdown(probe: ProbeModel, findings: readonly HoverFinding[] = [], live?: LiveProbe): string {
  const handler = probe.effective.handler;
  const header = `**${probe.type}Probe** of \`${probe.container.name}\``;
  const never = neverRunsReason(probe, findings);
  const lines = [header, '', ...(never ? [never] : verdictLines(probe))];
  if (handler) lines.push('', addressLine(probe, handler));
  if (live && !never) lines.push('', ...attemptLines(live));
  lines.push('', ...valuesTable(probe));
  return lines.join('\n');
}

/** The hover's words for `whyNeverActs`. */
function neverRunsReason(probe: ProbeModel, findings: readonly HoverFinding[]): string | undefined {
  const why = whyNeverActs(probe, findings);
  switch (why?.kind) {
    case undefined:
      return undefined;
    case 'init':
      return `**Never runs:** probes are not allowed on an init container (P14); the API server rejects the pod. Give the container \`restartPolicy: Always\` to make it a sidecar, whose probes do run.`;
    case 'ephemeral':
      return '**Never runs:** probes are not allowed on an ephemeral container (P16); the API server rejects it.';
    case 'rejected':
      return `**Never runs:** the API server rejects the pod: ${apiMessage(why.finding)} (${why.finding.rule}).`;
    case 'no-handler':
      return '**Never runs:** it has no handler (exec, httpGet, tcpSocket or grpc), so the API server rejects the pod (P01).';
    case 'undeclared-port':
      return `**Never succeeds or fails:** port \`${why.port}\` is not declared in the ports of \`${probe.container.name}\`, so every attempt is a prober error, which the kubelet counts neither way: ${UNRESOLVED[probe.type]} (L01).`;
  }
}

/** The API server's message, the field path it starts with as code: `spec.containers[0]…`: Invalid value: 2: must be 1. */
function apiMessage(finding: HoverFinding): string {
  const prefix = `${finding.path}: `;
  if (!finding.message.startsWith(prefix)) return escapeMarkdown(finding.message);
  return `${code(finding.path)}: ${escapeMarkdown(finding.message.slice(prefix.length))}`;
}

const UNRESOLVED: Readonly<Record<ProbeType, string>> = {
  liveness: 'it never restarts the container',
  readiness: 'the container never becomes ready',
  startup: 'the container never counts as started, so it is never ready',
};

/** The verdict and its timing, in one or two lines. */
function verdictLines(probe: ProbeModel): string[] {
  const effective = probe.effective;
  const stretch = stretchNote(effective);
  switch (probe.type) {
    case 'startup': {
      const act = restarts(probe) ? 'then restarts it' : 'then kills it for good (restartPolicy: Never)';
      return [
        `**Gives the app ${seconds(startupBudgetSeconds(effective))} to start** (${formula(effective, true)}), ${act}; liveness and readiness wait for its first success.`,
        ...(stretch ? [stretch] : []),
      ];
    }
    case 'liveness': {
      const act = restarts(probe) ? 'Restarts the container' : 'Kills the container for good (restartPolicy: Never)';
      const grace = seconds(killGraceSeconds(effective, probe.container.pod));
      const tolerance = `${act} after ${seconds(toleranceSeconds(effective))} of failures`;
      // Behind a startupProbe, liveness only begins once the container has started (W7).
      if (probe.container.probe('startup')) {
        return [`**${tolerance} once the startup probe has succeeded** (${formula(effective, false)}); it then has ${grace} to stop.`, ...(stretch ? [stretch] : [])];
      }
      const window = failureWindow(effective);
      const never = `If it never succeeds: ${restarts(probe) ? 'restarted' : 'killed'} ${window.earliest}–${seconds(window.latest)} after the container starts (${formula(effective, true)}).`;
      return [`**${tolerance}** (${formula(effective, false)}); it then has ${grace} to stop.`, stretch ? `${never} ${stretch}` : never];
    }
    case 'readiness': {
      const s = effective.successThreshold;
      const ready = s === 1 ? 'Ready after the first success' : `Ready after ${s} successes in a row (${s} × ${seconds(effective.periodSeconds)})`;
      const first = `**${ready}; unready after ${seconds(toleranceSeconds(effective))} failing** (${formula(effective, false)}).`;
      const start = probe.container.probe('startup')
        ? 'Probed once the startup probe has succeeded; not ready until then.'
        : effective.initialDelaySeconds > 0
          ? `First attempt ${seconds(effective.initialDelaySeconds)} after the container starts; not ready until then.`
          : 'First attempt as the container starts; not ready until a success.';
      const back = s === 1 ? '' : ` Back in after ${seconds(recoverySeconds(effective))} of successes.`;
      return [first, `${start}${back}${stretch ? ` ${stretch}` : ''}`];
    }
  }
}

/** A liveness or startup failure restarts the container unless the pod never restarts (a sidecar always does). */
function restarts(probe: ProbeModel): boolean {
  return probe.container.kind === 'sidecar' || probe.container.pod.restartPolicy !== 'Never';
}

/** `3 × 10 s`, with the initial delay when asked and there is one: `5 s + 3 × 20 s`. */
function formula(effective: EffectiveProbe, withDelay: boolean): string {
  const delay = withDelay && effective.initialDelaySeconds > 0 ? `${seconds(effective.initialDelaySeconds)} + ` : '';
  return `${delay}${effective.failureThreshold} × ${seconds(effective.periodSeconds)}`;
}

/** L12: hanging attempts come every timeoutSeconds, not every periodSeconds. */
function stretchNote(effective: EffectiveProbe): string | undefined {
  const { timeoutSeconds: t, periodSeconds: p, failureThreshold: f } = effective;
  if (t <= p) return undefined;
  return `Hanging attempts stretch the failures to ${f} × ${seconds(t)} = ${seconds(f * t)} (timeoutSeconds > periodSeconds).`;
}

/** Where the kubelet sends the probe (H1, T1, G1), `<pod IP>` named where the pod's address goes. */
function addressLine(probe: ProbeModel, handler: ProbeHandler): string {
  const spec = probe.container.spec;
  const podIp = '`<pod IP>` is the pod\'s own IP address';
  const port = (p: number | string) => {
    const resolved = resolveContainerPort(p, spec);
    return { number: resolved.ok ? resolved.port : NO_PORT, note: typeof p === 'string' && resolved.ok ? ` (port \`${p}\`)` : '' };
  };
  const address = (text: string, written: number | string) => code(text.replace(POD_IP, '<pod IP>').replace(`:${NO_PORT}`, `:<${written}>`));
  switch (handler.type) {
    case 'httpGet': {
      const { number, note } = port(handler.port);
      const url = formatProbeUrl(handler.scheme, handler.host ?? POD_IP, number, handler.path);
      const host = handler.httpHeaders.find((h) => h.name.toLowerCase() === 'host');
      const notes = [...(handler.host === undefined ? [podIp] : []), ...(host ? [`Host header \`${host.value}\``] : [])];
      return [`**Probes** ${address(url, handler.port)}${note}`, ...notes].join(' · ');
    }
    case 'tcpSocket': {
      const { number, note } = port(handler.port);
      const target = address(joinHostPort(handler.host ?? POD_IP, number), handler.port);
      return [`**Connects to** ${target}${note} over TCP`, ...(handler.host === undefined ? [podIp] : [])].join(' · ');
    }
    case 'grpc': {
      const service = handler.service ? ` for service \`${handler.service}\`` : '';
      return `**Calls** the gRPC health check on ${address(joinHostPort(POD_IP, handler.port), handler.port)}${service} · ${podIp}`;
    }
    case 'exec': {
      const line = handler.command.map(shellWord).join(' ');
      return `**Runs** ${code(line)} in the container${isShellProgram(handler.command) ? '' : ', without a shell'}`;
    }
  }
}

/** "Last attempt", "Last 3 attempts". */
function lastAttempts(count: number): string {
  return count === 1 ? 'Last attempt' : `Last ${count} attempts`;
}

/** The session's latest attempts: with their times when it keeps them, else their outcomes. */
function attemptLines(live: LiveProbe): string[] {
  const everyInstance = live.total && live.total.attempts !== live.attempts ? ` · every container instance: ${live.total.successes} of ${live.total.attempts} ok` : '';
  const counts = `${live.successes} of ${live.attempts} ok${everyInstance}`;
  const timed = live.recentAttempts ?? [];
  if (timed.length === 0) {
    const marks = live.recent.map((r) => OUTCOME_MARKS[r]).join(' ');
    const lines = [`**${lastAttempts(live.recent.length)}:** ${marks || 'none yet'} (${counts})`];
    if (live.lastError) lines.push(`**Last error:** ${escapeMarkdown(live.lastError)}`);
    else if (live.lastOutput) lines.push(`**Last output:** ${code(live.lastOutput.slice(0, 200))}`);
    return lines;
  }
  const newestFirst = timed.slice(-ATTEMPTS_SHOWN).reverse();
  const said = (a: TimedAttempt) => cell(a.error ?? a.output ?? '');
  // A column of nothing (TCP and gRPC successes say nothing) only takes room.
  const withOutput = newestFirst.some((a) => said(a) !== '');
  return [
    `**${lastAttempts(newestFirst.length)}** (${counts}), newest first:`,
    '',
    withOutput ? '| at | result | took | output |' : '| at | result | took |',
    withOutput ? '|---|---|---|---|' : '|---|---|---|',
    ...newestFirst.map((a) => `| ${sessionTime(a.t)} | ${OUTCOME_MARKS[a.outcome]} ${a.outcome} | ${Math.round(a.durationMs)} ms |${withOutput ? ` ${said(a)} |` : ''}`),
  ];
}

const TIMING_FIELDS: readonly (keyof EffectiveProbe & keyof ProbeSpec)[] = ['initialDelaySeconds', 'periodSeconds', 'timeoutSeconds', 'successThreshold', 'failureThreshold'];

function valuesTable(probe: ProbeModel): string[] {
  const rows = TIMING_FIELDS.map((field) => `| ${field} | ${probe.effective[field]}${probe.spec[field] !== undefined ? '' : ' *(default)*'} |`);
  return ['| field | value |', '|---|---|', ...rows];
}


/** Text in a table cell: one line, no column breaks, markdown escaped, at most 80 characters. */
function cell(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return escapeMarkdown(line.length > 80 ? `${line.slice(0, 79)}…` : line);
}

/** An inline code span that holds any text, backticks included. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${fence.length > 1 ? ' ' : ''}${text}${fence.length > 1 ? ' ' : ''}${fence}`;
}

function seconds(n: number): string {
  return `${n} s`;
}
