import { type Cause, type Context, type Explanation, type Finding } from './explanation';
import { backOff, deleting, initializing, killing, notCreated, terminated, waitingOther } from './explainLifecycle';
import { restartStory } from './explainRestarts';
import { disagreement, kubeletVerdict, paused, pendingPrediction, predicted, settledPrediction } from './explainOthers';
import { belowThreshold, notReady, notStarted, proberErrorCause, ready, startedCause, warningCause } from './explainProbes';
import { type ContainerAt, containerAt } from './explainView';
import type { RecordingHistory } from '../history/history';
import type { TimeFormat } from '../history/timeFormat';

export type { Cause, Evidence, ExplainedState, Explanation } from './explanation';

/**
 * Why a container is in its state at `at` (seconds since the recording began), from its history
 * up to then: `undefined` when the recording has no such container. The history may reach past
 * `at` (a session's, explained at the timeline's selection); nothing after `at` is read.
 */
export function explainContainer(history: RecordingHistory, pod: string, container: string, at: number, time: TimeFormat): Explanation | undefined {
  const view = containerAt(history, pod, container, at);
  if (!view) return undefined;
  const context: Context = { view, time, kills: history.kills };
  const found = mainFinding(context);
  const extra = supporting(context, found);
  const notes = extra.flatMap((e) => (e.note ? [e.note] : []));
  return {
    pod,
    container,
    t: at,
    state: found.state,
    sentence: [found.sentence, ...notes].join(' '),
    causes: [...found.causes, ...extra.map((e) => e.cause)],
  };
}

/** Every container of the recording at `at`, pods and containers in the order the recording first names them. */
export function explainRecording(history: RecordingHistory, at: number, time: TimeFormat): Explanation[] {
  const explanations: Explanation[] = [];
  for (const pod of history.pods.values()) {
    for (const container of pod.containers.keys()) {
      const explanation = explainContainer(history, pod.name, container, at, time);
      if (explanation) explanations.push(explanation);
    }
  }
  return explanations;
}

/** The state and what put it there: the container's lifecycle first, then, while it runs, its probes. */
function mainFinding(context: Context): Finding {
  const { view } = context;
  const state = view.state?.event;
  if (!state) return notCreated(context);
  if (state.state === 'waiting') {
    if (state.reason === 'CrashLoopBackOff') return backOff(context);
    if (state.reason === 'PodInitializing') return initializing(context);
    return waitingOther(context);
  }
  if (state.state === 'terminated') return terminated(context);
  const prediction = pendingPrediction(context);
  if (prediction) return predicted(context, prediction);
  const kill = killUnderWay(view);
  if (kill) return killing(context, kill);
  const deletion = view.pod.deleting;
  if (deletion && deletion.event.t <= view.at) return deleting(context, deletion);
  if (view.status && !view.status.event.started) return notStarted(context);
  if (view.status?.event.ready) {
    // Ready, but a probe is on its way to a threshold: that is the news.
    const risk = belowThreshold(context, 'liveness') ?? belowThreshold(context, 'readiness');
    const found = ready(context);
    if (!risk) return found;
    return { state: 'ready', sentence: `Ready, but ${risk.text.charAt(0).toLowerCase()}${risk.text.slice(1)}`, causes: [risk, ...found.causes] };
  }
  return notReady(context);
}

/** A `Killing` for a failed probe since the running instance started (its `terminated` line not yet written). */
function killUnderWay(view: ContainerAt) {
  const instance = view.instance;
  if (!instance) return undefined;
  for (let i = view.events.length - 1; i >= 0; i--) {
    const event = view.events[i];
    if (!event || event.index < instance.started.index) return undefined;
    if (event.event.reason === 'Killing' && event.event.probe !== undefined) return event;
  }
  return undefined;
}

interface Supporting {
  readonly cause: Cause;
  /** A sentence for the explanation's own, when it changes what the state means right now. */
  readonly note?: string;
}

/** What else bears on the state: earlier restarts, how it started, probes at risk, warnings and errors, the debugger, the cluster. */
function supporting(context: Context, found: Finding): Supporting[] {
  const { view } = context;
  const key = (cause: Cause) => `${cause.reason}\u0000${cause.text}`;
  const have = new Set(found.causes.map(key));
  const out: Supporting[] = [];
  const add = (cause: Cause | undefined, note?: string) => {
    if (cause && !have.has(key(cause))) {
      have.add(key(cause));
      out.push(note === undefined ? { cause } : { cause, note });
    }
  };
  const running = view.state?.event.state === 'running';
  if (running) {
    for (const cause of restartStory(context)?.causes ?? []) add(cause);
    if (view.status?.event.started) add(startedCause(context));
    if (found.state !== 'ready') add(belowThreshold(context, 'liveness'));
    for (const type of ['startup', 'readiness', 'liveness'] as const) {
      add(warningCause(context, type));
      add(proberErrorCause(context, type));
    }
  }
  const pause = paused(context);
  if (pause) add(pause.cause, pause.note);
  add(settledPrediction(context));
  const differs = disagreement(context);
  if (differs) add(differs.cause, differs.note);
  add(kubeletVerdict(context));
  return out;
}
