import { OUTCOME_MARKS } from '../../core/editor/probeText';
import { shortDuration } from '../../core/text/durations';
import { escapeMarkdown } from '../../core/text/markdown';
import { crashLoopDelayMs } from '../../core/engine/crashLoop';
import { containerCondition, killingWord, podHeadline, restartsLabel, type Severity, sessionHeadline } from '../../core/session/headline';
import { virtualTime } from '../../core/text/durations';
import type { ProbeType } from '../../core/manifest';
import { trailingFailures } from '../../core/session/outcomes';
import { clusterEventLine, clusterPodSentence, disagreementSentence, kubeletSentence, kubeletSuffix, podKubeletWords } from '../../core/session/clusterText';
import type { ContainerSnapshot, KillMode, PodSnapshot, ProbeSnapshot, SessionSnapshot } from '../../core/session/snapshot';
import type { Explanation } from '../../core/explain/explain';
import { explanationMarkdown } from '../../core/explain/explainMarkdown';
import type { SessionKind } from '../sessions/probingSession';

/**
 * What each row of the Probes view says, from a session's snapshot: label, description, icon and
 * tooltip as plain values, so every wording is tested without an editor (tree/probeTree.ts turns
 * them into tree items). Descriptions stay short (the worst first); tooltips say everything.
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
const PAUSED: Icon = { id: 'debug-pause' };
const ENDED: Icon = { id: 'history', color: 'disabledForeground' };

const SESSION_ICONS: Readonly<Record<SessionKind, Icon>> = { local: { id: 'pulse' }, simulated: { id: 'beaker' }, cluster: { id: 'cloud' } };
const SESSION_TITLES: Readonly<Record<SessionKind, string>> = {
  local: 'probing this machine',
  simulated: 'simulated on a virtual clock',
  cluster: 'probing pods in the cluster through the API server (kubectl proxy)',
};
const KILLS: Readonly<Record<KillMode, string>> = {
  'carried-out': 'Kills and restarts are carried out, as the kubelet would.',
  reported: 'The kubelet\'s kills are only reported: the process runs on, and a container it would kill says **would restart** (counted as such).',
  cluster: 'The cluster\'s kubelet restarts the containers: where ours would, Probe Lens predicts it (**would restart now**), then says whether the cluster did. Restarts counted are the cluster\'s own.',
};
const SEVERITY_ICONS: Readonly<Record<Severity, Icon | undefined>> = { error: FAILED, warning: WARNING, pending: undefined, ok: undefined };

export interface SessionFacts {
  readonly kind: SessionKind;
  readonly label: string;
  /** `127.0.0.1`, `60× · web.scenario.yaml`. */
  readonly detail: string;
  readonly state: SessionSnapshot;
  /** `12:01`: wall-clock time it started. */
  readonly startedAt: string;
  /** `12:03`: wall-clock time it ended, once it has. */
  readonly endedAt?: string;
}

/**
 * `shop.yaml` — `api: CrashLoopBackOff · 7 restarts (liveness) · 60×`, `pod shop Ready · paused
 * t+00:03:20`, `ended 12:03 · pod shop Ready`: the worst thing first, short enough to read whole
 * beside the row's buttons. The virtual time shows while it stands still; while it plays it
 * ticks in the status bar instead: a row redrawn every second would redraw every row under it
 * (VS Code refreshes a row with its children) and close any tooltip open there.
 */
export function presentSession(facts: SessionFacts): Presentation {
  const { state } = facts;
  const headline = sessionHeadline(state);
  const ended = facts.endedAt !== undefined;
  const virtual = state.clock.kind === 'virtual' ? state.clock : undefined;
  const clock = !virtual || ended ? [] : virtual.paused ? [`paused ${virtualTime(state.t)}`] : [`${virtual.speed}×`];
  // In a cluster, where: the context and namespace, as the status bar says them.
  const where = facts.kind === 'cluster' && facts.detail ? [facts.detail] : [];
  // A session that stopped on its own says why first: that is what its user must act on.
  const stopped = ended && state.stoppedBecause !== undefined ? [`stopped ${facts.endedAt}: ${firstClause(state.stoppedBecause)}`] : undefined;
  const parts = stopped ? [...stopped, ...where] : ended ? [`ended ${facts.endedAt}`, headline.text, ...clock, ...where] : [headline.text, ...clock, ...where];
  const icon = stopped ? FAILED : ended ? ENDED : virtual?.paused ? PAUSED : (SEVERITY_ICONS[headline.severity] ?? SESSION_ICONS[facts.kind]);
  const when = !virtual ? '' : ended ? `ended at virtual time ${virtualTime(state.t)}` : virtual.paused ? `paused at virtual time ${virtualTime(state.t)}` : `playing at ${virtual.speed}× (the virtual time ticks in the status bar)`;
  const markdown = [
    `**${escapeMarkdown(facts.label)}** — ${SESSION_TITLES[facts.kind]}${facts.detail ? ` · ${escapeMarkdown(facts.detail)}` : ''}`,
    '',
    `**${escapeMarkdown(headline.text)}**`,
    '',
    ...(state.stoppedBecause !== undefined ? [`Stopped: ${escapeMarkdown(state.stoppedBecause)}`, ''] : []),
    [`started ${facts.startedAt}`, ...(ended ? [`ended ${facts.endedAt}`] : []), ...(when ? [when] : [])].join(' · '),
    '',
    ...podLines(state),
    '',
    KILLS[state.kills],
  ].join('\n');
  return { label: facts.label, description: parts.join(' · '), icon, tooltip: { markdown } };
}

/** `the cluster refused a port-forward to pod api-0` of the sentence that says the rest after a comma or colon. */
function firstClause(sentence: string): string {
  return sentence.split(/[:,;]/)[0]?.trim() ?? sentence;
}

/** Each pod and container, its condition in words, for the session's tooltip. */
function podLines(state: SessionSnapshot): string[] {
  const lines: string[] = [];
  for (const pod of state.pods.values()) {
    lines.push(`- pod **${escapeMarkdown(pod.name)}** ${pod.ready ? 'Ready' : 'NotReady'}`);
    for (const container of pod.containers.values()) lines.push(`  - ${escapeMarkdown(container.name)}: ${escapeMarkdown(containerCondition(container, state.kills).text)}`);
  }
  return lines.length > 0 ? lines : ['No pod has started yet.'];
}

/** `Ready`, `NotReady` (its containers' rows, right under it, say why; its tooltip too). */
export function presentPod(name: string, pod: PodSnapshot | undefined, kills: KillMode): Presentation {
  if (!pod) return { label: name, description: 'not started yet', icon: PENDING, tooltip: { markdown: `Pod **${escapeMarkdown(name)}** has not started yet` } };
  const headline = podHeadline(pod, kills);
  const kubelet = podKubeletWords(pod);
  const description = [pod.ready ? 'Ready' : 'NotReady', ...(kubelet ? [kubelet] : [])].join(' · ');
  // The cluster's kubelet saying otherwise is worth a look, whichever way it differs.
  const differs = pod.kubeletReady !== undefined && pod.kubeletReady !== pod.ready;
  const icon = differs ? WARNING : pod.ready ? PASSED : (SEVERITY_ICONS[headline.severity] ?? PENDING);
  const ready = [...pod.containers.values()].filter((c) => c.ready).length;
  const markdown = [`Pod **${escapeMarkdown(name)}** · ${pod.ready ? 'Ready' : 'NotReady'} by our probes (${ready} of ${pod.containers.size} containers ready)`, '', escapeMarkdown(headline.text), ...clusterLines(pod)];
  return { label: name, description, icon, tooltip: { markdown: markdown.join('\n') } };
}

/**
 * A manifest pod probed as several cluster pods (`--all-pods`): `3 pods · 2 Ready`, the worst
 * first in the tooltip; each pod's own row, right under it, says the rest.
 */
export function presentPodGroup(name: string, pods: readonly PodSnapshot[], kills: KillMode): Presentation {
  const ready = pods.filter((p) => p.ready).length;
  const headlines = pods.map((pod) => ({ pod, headline: podHeadline(pod, kills) }));
  const worst = headlines.find((h) => !h.pod.ready && SEVERITY_ICONS[h.headline.severity]);
  const icon = ready === pods.length ? PASSED : worst ? (SEVERITY_ICONS[worst.headline.severity] ?? PENDING) : PENDING;
  const markdown = [`**${escapeMarkdown(name)}** · probed as ${pods.length} pods of the cluster, ${ready} Ready by our probes`, '', ...headlines.map((h) => `- ${escapeMarkdown(h.headline.text)}`)];
  return { label: name, description: `${pods.length} pods · ${ready} Ready`, icon, tooltip: { markdown: markdown.join('\n') } };
}

/** Where the pod lives in the cluster, what the cluster says of it, and its newest events there. */
function clusterLines(pod: PodSnapshot): string[] {
  const where = clusterPodSentence(pod);
  if (!where) return [];
  const lines = ['', escapeMarkdown(where)];
  if (pod.kubeletReady !== undefined) lines.push('', `The cluster says: **${pod.kubeletReady ? 'Ready' : 'NotReady'}**.`);
  if (pod.clusterEvents.length > 0) lines.push('', 'The cluster\'s newest events:', ...[...pod.clusterEvents].reverse().map((e) => `- ${escapeMarkdown(clusterEventLine(e))}`));
  return lines;
}

/**
 * `ready · restarts 2`, `started · not ready · restarts 0`, `CrashLoopBackOff · back-off 40s ·
 * restarts 3 (liveness)`, `restarting (liveness failed) · restarts 1 (liveness)`; where kills are
 * only reported, `would restart now (liveness failed) · would restart 1× (liveness)`.
 */
export function presentContainer(name: string, container: ContainerSnapshot | undefined, kills: KillMode, why?: Explanation): Presentation {
  if (!container) return { label: name, description: 'not started yet', icon: PENDING, tooltip: { markdown: `Container **${escapeMarkdown(name)}** has not started yet` } };
  const restarts = restartsLabel(container, kills);
  const backOff = container.message === undefined ? undefined : crashLoopDelayMs(container.message);
  const backOffText = backOff === undefined ? undefined : shortDuration(backOff / 1000);
  let description: string;
  let icon: Icon;
  if (container.state === 'waiting' && container.reason === 'CrashLoopBackOff') {
    // The back-off's length, not what is left of it: a row that changes every second closes its tooltip.
    description = `CrashLoopBackOff${backOffText === undefined ? '' : ` · back-off ${backOffText}`} · ${restarts}`;
    icon = FAILED;
  } else if (container.killing && container.state !== 'waiting') {
    description = `${killingWord(container.killing, kills)} (${container.killing.probe} failed) · ${restarts}`;
    icon = FAILED;
  } else if (container.state === 'waiting') {
    description = `${container.reason ?? 'waiting'} · ${restarts}`;
    icon = PENDING;
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
  const kubelet = kubeletSuffix(container, false);
  if (kubelet) description = `${description} · ${kubelet}`;
  if (container.disagreement) icon = WARNING;
  const restartLine =
    kills === 'cluster'
      ? `Restarts: ${container.restartCount}, the cluster's${container.lastRestartCause ? `; ours would have last restarted it for ${causeWords(container)}` : ''}.`
      : kills === 'reported'
      ? `The kubelet would have restarted it ${container.restarts} time${container.restarts === 1 ? '' : 's'}${container.lastRestartCause ? `, last for ${causeWords(container)}` : ''}; the process itself runs on.`
      : `Restarts: ${container.restarts} (the kubelet's restartCount ${container.restartCount}${container.restarts > container.restartCount ? ' and one under way' : ''})${container.lastRestartCause ? `, last for ${causeWords(container)}` : ''}.`;
  const markdown = [
    `Container **${escapeMarkdown(name)}** · ${container.state}${container.reason ? ` (${escapeMarkdown(container.reason)})` : ''}`,
    '',
    `${container.started ? 'started' : 'not started'} · ${container.ready ? 'ready' : 'not ready'}${container.startedAt !== undefined ? ` · this instance started at t=${container.startedAt.toFixed(1)}s` : ''}`,
    '',
    // Why it is in that state (issue 12 §1): the sentence and its causes, from the session's events.
    ...(why ? [explanationMarkdown(why, '**Why**'), ''] : []),
    restartLine,
    ...kubeletLines(container),
    ...(container.message ? ['', escapeMarkdown(container.message)] : []),
    ...(container.backOffUntil !== undefined ? ['', `Restarts when its back-off ends, at t=${container.backOffUntil.toFixed(1)}s.`] : []),
    '',
    `\`${escapeCode(container.containerId || 'no container yet')}\``,
  ].join('\n');
  return { label: name, description, icon, tooltip: { markdown } };
}

/** The cluster's kubelet beside ours: its verdict, a disagreement and its likely cause, a prediction's fate. */
function kubeletLines(container: ContainerSnapshot): string[] {
  const lines: string[] = [];
  if (container.kubelet) lines.push('', escapeMarkdown(kubeletSentence(container.kubelet)));
  if (container.disagreement) lines.push('', `**Ours and the kubelet disagree** (${escapeMarkdown(container.disagreement.cause)}): ${escapeMarkdown(disagreementSentence(container.disagreement.message))}`);
  const prediction = container.prediction;
  if (prediction) lines.push('', `Prediction (${prediction.state}, t=${prediction.t.toFixed(1)}s): ${escapeMarkdown(prediction.message)}`);
  return lines;
}

function causeWords(container: ContainerSnapshot): string {
  return container.lastRestartCause === 'exit' ? 'an exit of its process' : `a failed ${container.lastRestartCause} probe`;
}

export interface ProbeFacts {
  readonly type: ProbeType;
  /** The probe as published: counts for the current container instance. */
  readonly probe: ProbeSnapshot | undefined;
  readonly failureThreshold: number;
  /** `httpGet http://:8080/healthz`. */
  readonly handler: string;
  /** Its container is running (probes are only attempted then). */
  readonly running: boolean;
}

/** `12/12 ok · 4 ms`, `failing 2/3 · 10/12 ok`, `error · 0/3 ok`, `waiting for the first attempt` (a new container instance starts there). */
export function presentProbe(facts: ProbeFacts): Presentation {
  const { probe } = facts;
  const last = probe?.last;
  const label = facts.type;
  if (!probe || probe.attempts === 0 || !last) {
    const icon = facts.running ? PENDING : IDLE;
    const total = probe && probe.total.attempts > 0 ? `\n\n${totalLine(probe)}` : '';
    return { label, description: 'waiting for the first attempt', icon, tooltip: { markdown: `${probeHeading(facts)}${total}` } };
  }
  const counts = `${probe.successes}/${probe.attempts} ok`;
  const failing = trailingFailures(probe.recent);
  let description: string;
  let icon: Icon;
  if (last.error !== undefined) {
    description = `error · ${counts}`;
    icon = ERRORED;
  } else if (failing > 0) {
    description = `failing ${Math.min(failing, facts.failureThreshold)}/${facts.failureThreshold} · ${counts}`;
    icon = probe.result === 'Failure' ? FAILED : WARNING;
  } else {
    description = `${probe.result === 'Success' ? '' : 'not passed yet · '}${counts} · ${Math.round(last.durationMs)} ms`;
    icon = probe.result === 'Success' ? PASSED : WARNING;
  }
  const marks = probe.recent.map((r) => OUTCOME_MARKS[r]).join(' ');
  const markdown = [
    probeHeading(facts),
    '',
    `Result **${probe.result ?? 'none yet'}** · this container: ${counts} · last ${probe.recent.length}: ${marks}`,
    '',
    totalLine(probe),
    '',
    `Last attempt at t=${last.t.toFixed(1)}s: **${last.outcome}** in ${Math.round(last.durationMs)} ms${last.error !== undefined ? ' (prober error, not counted)' : ''}`,
  ].join('\n');
  const output = last.error ?? last.output;
  return { label, description, icon, tooltip: output ? { markdown: `${markdown}\n\n${last.error !== undefined ? 'Error:' : 'Output:'}`, code: output } : { markdown } };
}

function totalLine(probe: ProbeSnapshot): string {
  return `All containers: ${probe.total.successes}/${probe.total.attempts} ok`;
}

function probeHeading(facts: ProbeFacts): string {
  return `**${facts.type}** probe · ${escapeMarkdown(facts.handler)}`;
}

/** `12:03`: a wall-clock time (epoch ms) in the local time zone, to the minute. */
export function wallTime(epochMs: number): string {
  const date = new Date(epochMs);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

function escapeCode(text: string): string {
  return text.replace(/`/g, "'");
}
