/**
 * The details area's *why* (issue 12 §1): for the moment selected on a container's lane, a plain
 * sentence saying why the container is in its state, the causes behind it, and each line of the
 * recording they cite as a button that shows it on the timeline. Plain DOM in theme colours
 * (media/timeline.css); every text from the host goes in as `textContent`. A polite live region:
 * a screen reader hears the sentence when it comes.
 */
import type { TimelineEvidence, TimelineExplanation } from '../../../shared/protocol';
import type { WhyState } from '../model/whyState';
import { button, decorativeIcon, h } from './dom';

export interface WhyEvents {
  /** A cited line's button: show it on the timeline. */
  evidence(evidence: TimelineEvidence): void;
  /** The close button: no moment selected any more. */
  close(): void;
}

export class WhyView {
  readonly element: HTMLElement;
  private readonly title: HTMLHeadingElement;
  private readonly sentence: HTMLParagraphElement;
  private readonly causes: HTMLUListElement;
  private current: WhyState = { shown: false, pending: false, title: '', sentence: '', causes: [] };

  constructor(
    codicons: boolean,
    private readonly events: WhyEvents,
  ) {
    this.title = h('h2', { className: 'tl-why-title', id: 'timeline-why-title' });
    const close = button({ label: 'Close the explanation (Escape)', text: 'Close', icon: 'close', className: 'tl-why-close' }, codicons, () => events.close());
    const icon = decorativeIcon('question', codicons);
    this.sentence = h('p', { className: 'tl-why-sentence', id: 'timeline-why-sentence', attrs: { 'aria-live': 'polite' } });
    this.causes = h('ul', { className: 'tl-why-causes', attrs: { 'aria-label': 'Causes, with the lines of the recording they come from' } });
    this.element = h('section', { className: 'tl-why', id: 'timeline-why', attrs: { 'aria-labelledby': 'timeline-why-title' } }, [
      h('div', { className: 'tl-why-head' }, [icon, this.title, close]),
      this.sentence,
      this.causes,
    ]);
    this.element.hidden = true;
  }

  get state(): WhyState {
    return this.current;
  }

  /** Asked, not yet answered. */
  pending(title: string): void {
    this.render({ shown: true, pending: true, title, sentence: 'Explaining…', causes: [] }, []);
  }

  /** The host's answer; `at(t)` says a cited line's time as the sentence does (`timelineTimeFormat`). */
  show(title: string, explanation: TimelineExplanation, at: (t: number) => string): void {
    const causes = explanation.causes.map((cause) => ({ text: cause.text, evidence: cause.evidence.map((e) => evidenceText(e, at)) }));
    this.render({ shown: true, pending: false, title, sentence: explanation.sentence, causes }, explanation.causes.map((cause) => cause.evidence));
  }

  /** No explanation: why not. */
  failed(title: string, message: string): void {
    this.render({ shown: true, pending: false, title, sentence: `No explanation: ${message}`, causes: [] }, []);
  }

  clear(): void {
    if (!this.current.shown) return;
    this.current = { shown: false, pending: false, title: '', sentence: '', causes: [] };
    this.element.hidden = true;
    this.causes.replaceChildren();
  }

  private render(state: WhyState, evidence: readonly (readonly TimelineEvidence[])[]): void {
    this.current = state;
    this.element.hidden = false;
    this.element.classList.toggle('tl-why-pending', state.pending);
    // Busy while asked: a screen reader waits for the answer rather than reading "Explaining…" first.
    this.sentence.setAttribute('aria-busy', String(state.pending));
    this.title.textContent = state.title;
    this.sentence.textContent = state.sentence;
    this.causes.replaceChildren(
      ...state.causes.map((cause, i) => {
        const cited = evidence[i] ?? [];
        const buttons = cited.map((e, j) => {
          const text = cause.evidence[j] ?? '';
          // The whole line in its title: a long one is cut on the button.
          const item = h('button', { className: 'tl-why-evidence', text, attrs: { type: 'button', title: `${text}\nShow it on the timeline`, 'aria-label': `Show on the timeline: ${text}` } });
          item.addEventListener('click', () => {
            for (const other of this.causes.querySelectorAll('.tl-why-evidence[aria-current]')) other.removeAttribute('aria-current');
            item.setAttribute('aria-current', 'true');
            this.events.evidence(e);
          });
          return h('li', {}, [item]);
        });
        return h('li', { className: 'tl-why-cause' }, [h('span', { className: 'tl-why-cause-text', text: cause.text }), buttons.length > 0 ? h('ul', { className: 'tl-why-evidence-list' }, buttons) : undefined]);
      }),
    );
  }
}

/** A cited line as its button says it: `1m35s · Readiness probe failed: HTTP 503`. */
export function evidenceText(evidence: TimelineEvidence, at: (t: number) => string): string {
  return `${at(evidence.t)} · ${evidence.summary}`;
}
