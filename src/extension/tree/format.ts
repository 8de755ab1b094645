import { escapeMarkdown, OUTCOME_MARKS, trailingFailures } from '../../core/analysis/probeText';
import type { EngineEvent } from '../../core/engine/events';
import type { ProbeType } from '../../core/manifest';
import type { ContainerSummary, PodSummary, ProbeSummary } from '../../core/session/summary';
import type { SessionKind } from '../sessions/probingSession';

/**
 * What each row of the Probes view says, from a session's summary: label, description, icon and
 * tooltip as plain values, so every wording is tested without an editor (tree/probeTree.ts turns
 * them into tree items).
 */
export interface Presentation {
  readonly label: string;
  readonly description: string;
  readonly icon: Icon;
  /** Markdown (already escaped); `code` is appended as a plain-text block. */
  readonly tooltip: { readonly markdown: string; readonly code?: string };
}

export interface Icon {
  /** A codicon id (`pass`, `loading~spin`). */
  readonly id: string;
  /** A theme colour id (`testing.iconPassed`). */
  readonly color?: string;
}

const PASSED: Icon = { id: 'pass', color: 'testing.iconPassed' };
const FAILED: Icon = { id: 'error', color: 'testing.iconFailed' };
const WARNING: Icon = { id: 'warning', color: 'problemsWarningIcon.foreground' };
const ERRORED: Icon = { id: 'question', color: 'problemsWarningIcon.foreground' };
const PENDING: Icon = { id: 'loading~spin' };
const IDLE: Icon = { id: 'circle-outline', color: 'testing.iconUnset' };
const STOPPED: Icon = { id: 'circle-slash', color: 'disabledForeground' };

const SESSION_ICONS: Readonly<Record<SessionKind, Icon>> = { local: { id: 'pulse' }, simulated: { id: 'beaker' }, cluster: { id: 'cloud' } };
const SESSION_TITLES: Readonly<Record<SessionKind, string>> = {
  local: 'probing this machine',
  simulated: 'simulated on a virtual clock',
  cluster: 'probing pods in the cluster through kubectl port-forward and exec (kills and restarts are only reported)',
};

export interface SessionFacts {
  readonly kind: SessionKind;
  readonly label: string;
  /** `127.0.0.1`, `60× · web.scenario.yaml`. */
  readonly detail: string;
  readonly elapsedSeconds: number;
  readonly containers: readonly (ContainerSummary | undefined)[];
}

/** `local · 127.0.0.1 · 2/3 ready`, `simulated 60× · web.scenario.yaml · t=5m 10s · 1/1 ready`. */
export function presentSession(facts: SessionFacts): Presentation {
  const ready = facts.containers.filter((c) => c?.ready).length;
  const failing = facts.containers.some((c) => c?.reason === 'CrashLoopBackOff');
  const clock = facts.kind === 'simulated' ? ` · t=${duration(facts.elapsedSeconds)}` : '';
  const description = `${facts.kind} · ${facts.detail}${clock} · ${ready}/${facts.containers.length} ready`;
  const icon: Icon = failing ? FAILED : SESSION_ICONS[facts.kind];
  const markdown = [
    `**${escapeMarkdown(facts.label)}** — ${SESSION_TITLES[facts.kind]}`,
    '',
    `${escapeMarkdown(facts.detail)} · running for ${duration(facts.elapsedSeconds)}${facts.kind === 'simulated' ? ' (virtual)' : ''} · ${ready} of ${facts.containers.length} containers ready`,
  ].join('\n');
  return { label: facts.label, description, icon, tooltip: { markdown } };
}

/** `ready`, `not ready · 1/2 containers ready`. */
export function presentPod(name: string, pod: PodSummary | undefined, containers: readonly (ContainerSummary | undefined)[]): Presentation {
  const ready = containers.filter((c) => c?.ready).length;
  const backOff = containers.some((c) => c?.reason === 'CrashLoopBackOff');
  const isReady = pod?.ready ?? false;
  const description = isReady ? 'ready' : `not ready · ${ready}/${containers.length} containers ready`;
  const icon = isReady ? PASSED : backOff ? FAILED : pod ? WARNING : PENDING;
  return { label: name, description, icon, tooltip: { markdown: `Pod **${escapeMarkdown(name)}** · ${isReady ? 'Ready' : 'not Ready'} (${ready} of ${containers.length} containers ready)` } };
}

/** `ready · restarts 2`, `started · not ready · restarts 0`, `CrashLoopBackOff · restarts 3`. */
export function presentContainer(name: string, container: ContainerSummary | undefined): Presentation {
  if (!container) return { label: name, description: 'not started yet', icon: PENDING, tooltip: { markdown: `Container **${escapeMarkdown(name)}** has not started yet` } };
  const restarts = `restarts ${container.restartCount}`;
  let description: string;
  let icon: Icon;
  if (container.state === 'waiting') {
    description = `${container.reason ?? 'waiting'} · ${restarts}`;
    icon = container.reason === 'CrashLoopBackOff' ? FAILED : PENDING;
  } else if (container.state === 'terminated') {
    description = `terminated${container.reason ? ` (${container.reason})` : ''} · ${restarts}`;
    icon = STOPPED;
  } else if (container.ready) {
    description = `ready · ${restarts}`;
    icon = PASSED;
  } else if (container.started) {
    description = `started · not ready · ${restarts}`;
    icon = WARNING;
  } else {
    description = `starting · ${restarts}`;
    icon = PENDING;
  }
  const markdown = [
    `Container **${escapeMarkdown(name)}** · ${container.state}${container.reason ? ` (${escapeMarkdown(container.reason)})` : ''}`,
    '',
    `${container.started ? 'started' : 'not started'} · ${container.ready ? 'ready' : 'not ready'} · ${restarts}`,
    '',
    `\`${escapeCode(container.containerId || 'no container yet')}\``,
  ].join('\n');
  return { label: name, description, icon, tooltip: { markdown } };
}

export interface ProbeFacts {
  readonly type: ProbeType;
  readonly summary: ProbeSummary | undefined;
  readonly last: Extract<EngineEvent, { type: 'attempt' }> | undefined;
  readonly failureThreshold: number;
  /** `httpGet http://:8080/healthz`. */
  readonly handler: string;
  /** Its container is running (probes are only attempted then). */
  readonly running: boolean;
}

/** `12/12 ok · 4 ms`, `failing 2/3 · 10/12 ok`, `error · 0/3 ok`, `waiting for the first attempt`. */
export function presentProbe(facts: ProbeFacts): Presentation {
  const { summary, last } = facts;
  const label = facts.type;
  if (!summary || summary.attempts === 0 || !last) {
    const icon = facts.running ? PENDING : IDLE;
    return { label, description: 'waiting for the first attempt', icon, tooltip: { markdown: probeHeading(facts) } };
  }
  const counts = `${summary.successes}/${summary.attempts} ok`;
  const failing = trailingFailures(summary.recent);
  let description: string;
  let icon: Icon;
  if (last.error !== undefined) {
    description = `error · ${counts}`;
    icon = ERRORED;
  } else if (failing > 0) {
    description = `failing ${Math.min(failing, facts.failureThreshold)}/${facts.failureThreshold} · ${counts}`;
    icon = summary.result === 'Failure' ? FAILED : WARNING;
  } else {
    description = `${summary.result === 'Success' ? '' : 'not passed yet · '}${counts} · ${Math.round(last.durationMs)} ms`;
    icon = summary.result === 'Success' ? PASSED : WARNING;
  }
  const marks = summary.recent.map((r) => OUTCOME_MARKS[r]).join(' ');
  const markdown = [
    probeHeading(facts),
    '',
    `Result **${summary.result ?? 'none yet'}** · ${counts} · last ${summary.recent.length}: ${marks}`,
    '',
    `Last attempt at t=${last.t.toFixed(1)}s: **${last.outcome}** in ${Math.round(last.durationMs)} ms${last.error !== undefined ? ' (prober error, not counted)' : ''}`,
  ].join('\n');
  const output = last.error ?? last.output;
  return { label, description, icon, tooltip: output ? { markdown: `${markdown}\n\n${last.error !== undefined ? 'Error:' : 'Output:'}`, code: output } : { markdown } };
}

function probeHeading(facts: ProbeFacts): string {
  return `**${facts.type}** probe · ${escapeMarkdown(facts.handler)}`;
}

/** `42s`, `5m 10s`, `2h 03m`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function escapeCode(text: string): string {
  return text.replace(/`/g, "'");
}
