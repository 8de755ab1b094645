import { type Cause, type Context, cause, type Finding, sampled } from './explanation';
import { predictedKill } from './explainLifecycle';
import { times } from './explainText';
import { upTo } from './explainView';
import type { AttemptLine, Cited, DisagreementLine, PauseSpan, PredictionLine } from '../history/history';

/**
 * What stands beside our kubelet's account: a debugger holding the app (a `pause` line, attempts
 * marked `paused`), and in a cluster the cluster's own kubelet — its verdict, our readiness
 * disagreeing with it, our predicted kills and whether the cluster carried them out.
 */

/** A pending prediction for the running instance: ours would kill it now, the cluster has not yet. */
export function pendingPrediction(context: Context): Cited<PredictionLine> | undefined {
  const { view } = context;
  const id = view.instance?.containerId;
  const predictions = view.container.predictions.slice(0, upTo(view.container.predictions, view.at)).filter((p) => p.event.containerId === id);
  const last = predictions.at(-1);
  return last?.event.state === 'pending' ? last : undefined;
}

export function predicted(context: Context, prediction: Cited<PredictionLine>): Finding {
  const { probe, t, message } = prediction.event;
  const sentence = `Would restart now: ${predictedKill(context, probe, t)}; waiting to see whether the cluster's kubelet restarts it.`;
  const text = `Our kubelet would kill it here (K2), but the cluster's owns it: predicted at ${context.time.at(t)} (${message}); confirmed once the cluster stops that instance, missed if it does not within the grace period and a period.`;
  return { state: 'restarting', sentence, causes: [cause('prediction', text, [prediction])] };
}

/** The newest settled prediction: the cluster did (or did not) restart as ours predicted. */
export function settledPrediction(context: Context): Cause | undefined {
  const { view } = context;
  const predictions = view.container.predictions.slice(0, upTo(view.container.predictions, view.at));
  const last = predictions.at(-1);
  if (!last || last.event.state === 'pending') return undefined;
  const pending = [...predictions].reverse().find((p) => p.event.state === 'pending' && p.event.containerId === last.event.containerId);
  const text = `Our ${last.event.probe} probe predicted a restart${pending ? ` at ${context.time.at(pending.event.t)}` : ''}; ${last.event.state} at ${context.time.at(last.event.t)}: ${last.event.message}.`;
  return cause(last.event.state === 'confirmed' ? 'prediction-confirmed' : 'prediction-missed', text, [pending, last]);
}

/** Ours and the cluster's kubelet disagree on readiness (an open `disagreement`), with its likely cause. */
export function disagreement(context: Context): { readonly cause: Cause; readonly note: string } | undefined {
  const { view } = context;
  const last: Cited<DisagreementLine> | undefined = view.container.disagreements[upTo(view.container.disagreements, view.at) - 1];
  if (last?.event.state !== 'open') return undefined;
  const { ours, kubelet, message } = last.event;
  const word = (ready: boolean) => (ready ? 'ready' : 'not ready');
  const note = `The cluster's kubelet says ${word(kubelet)} since ${context.time.at(last.event.t)}: ${message}${/[.!?]$/.test(message) ? '' : '.'}`;
  const text = `Since ${context.time.at(last.event.t)} ours says ${word(ours)} and the cluster's kubelet ${word(kubelet)} (${last.event.cause}): ${message}`;
  return { cause: cause('disagreement', text, [last]), note };
}

/** The cluster's kubelet's own word on the container, as last reported. */
export function kubeletVerdict(context: Context): Cause | undefined {
  const { view } = context;
  const last = view.container.kubelet[upTo(view.container.kubelet, view.at) - 1];
  if (!last) return undefined;
  const { started, ready, restartCount } = last.event;
  const state = ready ? 'Ready' : started === false ? 'not started' : 'not Ready';
  return cause('kubelet', `The cluster's kubelet says: ${state}${restartCount !== undefined ? `, restartCount ${restartCount}` : ''} (since ${context.time.at(last.event.t)}).`, [last]);
}

/**
 * A debugger holding the app now, or while the container's probes failed: those failures are
 * the pause's, not the app's. `note` is said in the sentence while the pause goes on.
 */
export function paused(context: Context): { readonly cause: Cause; readonly note: string | undefined } | undefined {
  const { view } = context;
  const from = view.instances[0]?.startedAt ?? 0;
  const spans = view.pod.pauses.filter((p) => p.from <= view.at && (p.to === undefined || p.to >= from));
  if (spans.length === 0) return undefined;
  const span = spans.at(-1) as PauseSpan;
  const open = span.to === undefined || span.to > view.at;
  const failed: Cited<AttemptLine>[] = [];
  for (const instance of view.instances) {
    for (const attempts of instance.attempts.values()) {
      for (const attempt of attempts.slice(0, upTo(attempts, view.at))) if (attempt.event.paused && attempt.event.outcome !== 'success' && attempt.event.outcome !== 'warning') failed.push(attempt);
    }
  }
  failed.sort((a, b) => a.index - b.index);
  const meanwhile = failed.length === 0 ? '' : `; ${times(failed.length)} a probe failed against the paused program: the pause's failures, not the app's`;
  const held = open ? `has held the app since ${context.time.at(span.from)}` : `held the app from ${context.time.at(span.from)} to ${context.time.at(span.to as number)}`;
  const text = `A debugger (session ${span.debugSession}) ${held}${meanwhile}.`;
  const lines = [...view.pod.pauseLines.filter((p) => p.event.t <= view.at && (p.event.state === 'paused' ? p.event.t === span.from : p.event.t === span.to)), ...sampled(failed)];
  return { cause: cause('paused', text, lines), note: open ? `Paused in the debugger since ${context.time.at(span.from)}.` : undefined };
}
