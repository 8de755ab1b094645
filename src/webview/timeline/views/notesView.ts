/**
 * The notes above the lanes (`notesFor`: dropped events, skipped lines, loading, ended, failed),
 * in a polite live region. Plain text only: the page has no icon font, and a glyph meant for one
 * would show as an empty box.
 */
import { notesFor } from '../words/describe';
import { h } from './dom';
import type { TimelineSession } from '../model/session';

export class NotesView {
  readonly element: HTMLDivElement;
  private shown = '';
  /** What the notes were last made from (-1: make them again). */
  private madeFrom = -1;

  constructor() {
    this.element = h('div', { className: 'tl-notes', id: 'timeline-notes', attrs: { role: 'status', 'aria-live': 'polite' } });
  }

  /** A message came: the notes are made again at the next update, whatever changed. */
  invalidate(): void {
    this.madeFrom = -1;
  }

  /** The notes as they are now (`\n` between them), '' if none. */
  get text(): string {
    return this.shown;
  }

  /** Makes the notes again if what they say may have changed; the element changes only if the words did. */
  update(session: TimelineSession): void {
    const from = session.feed.version * 4 + (session.loading ? 1 : 0) + (session.ended ? 2 : 0);
    if (from === this.madeFrom && session.failed === undefined) return;
    this.madeFrom = from;
    const notes = notesFor(session.noteInput());
    const text = notes.join('\n');
    if (text === this.shown && this.element.hidden === (notes.length === 0)) return;
    this.shown = text;
    this.element.replaceChildren(...notes.map((note) => h('div', { className: 'tl-note', text: note })));
    this.element.hidden = notes.length === 0;
  }
}
