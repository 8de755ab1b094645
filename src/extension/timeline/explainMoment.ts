import type { EngineEvent } from '../../core/engine/events';
import { explainContainer } from '../../core/explain/explain';
import { buildHistory } from '../../core/history/history';
import { timelineTimeFormat } from '../../core/history/timeFormat';
import type { TimelineClock } from '../../core/timeline/clockText';
import type { RunHeader } from '../../core/timeline/jsonl';
import { laneKeyOf } from '../../core/timeline/laneKeys';
import { sectionLaneKey } from '../../core/timeline/sections';
import type { TimelineExplanation, WebviewMessage } from '../../shared/protocol';

/** A run's lines as the insights read them: its header and its events in the order they were written. */
export interface ExplainableRun {
  readonly header: RunHeader | undefined;
  readonly events: readonly EngineEvent[];
}

export type ExplainRequest = Extract<WebviewMessage, { type: 'explain' }>;

export type ExplainAnswer = { readonly explanation: TimelineExplanation } | { readonly failure: string };

/**
 * The timeline's selection explained (issue 12 §1): why the container is in its state at the
 * moment selected, from the run's lines up to then — the same core code as `probe-lens explain
 * --at`. Each cited line is said with the lane it is drawn on (section-prefixed in a timeline of
 * several runs), so the webview can show it; its times are said as the panel's axis says them
 * (`clock`: the panel's), as the webview says the cited lines' times. Pure: no editor API.
 */
export function explainMoment(run: ExplainableRun, request: ExplainRequest, clock: TimelineClock): ExplainAnswer {
  const history = buildHistory(run.header, run.events, { until: request.t });
  const found = explainContainer(history, request.pod, request.container, request.t, timelineTimeFormat(clock));
  if (!found) return { failure: `${request.pod}/${request.container} has no lines by then` };
  return {
    explanation: {
      pod: found.pod,
      container: found.container,
      t: found.t,
      state: found.state,
      sentence: found.sentence,
      causes: found.causes.map((cause) => ({
        reason: cause.reason,
        text: cause.text,
        evidence: cause.evidence.map((e) => {
          const line = run.events[e.index];
          return { t: e.t, type: e.type, summary: e.summary, lane: line ? sectionLaneKey(request.section, laneKeyOf(line)) : '' };
        }),
      })),
    },
  };
}
