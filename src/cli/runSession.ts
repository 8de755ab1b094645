import { basename } from 'node:path';
import type { RealClock } from '../core/base/clock';
import type { Disposable } from '../core/base/disposable';
import { htmlOutput, type PageAssets } from './format/html';
import { jsonlOutput, type SessionOutput, textOutput } from './format/session';
import { type CliIo, INTERNAL_ERROR_EXIT, internalErrorText } from './io';

const REDRAW_MS = 500;

/** t = 0 of a run: on the session's clock, and as wall-clock time (the header's `startedAt`). */
export interface RunStart {
  readonly epoch: number;
  readonly startedAtMs: number;
  readonly startedAt: string;
}

export function runStart(clock: RealClock): RunStart {
  const epoch = clock.now();
  const startedAtMs = Date.now();
  return { epoch, startedAtMs, startedAt: new Date(startedAtMs).toISOString() };
}

export interface PageSetup {
  readonly page: PageAssets | undefined;
  readonly clock: RealClock;
  readonly start: RunStart;
  readonly file: string;
}

/**
 * What a session prints with: a live table on a colour terminal, else plain lines, JSON lines, or
 * (`html`) one page written when the session stops, its axis in wall-clock time.
 */
export function sessionOutput(io: CliIo, format: string, header: Record<string, unknown>, setup: PageSetup): Pick<Session, 'output' | 'text' | 'live'> {
  const sink = { write: io.stdout, color: io.color, live: io.color && format === 'text' };
  if (setup.page) {
    const { clock, start } = setup;
    const title = `${basename(setup.file)} · ${String(header['target'])} run · ${start.startedAt}`;
    const output = htmlOutput(sink, header, {
      assets: setup.page,
      clock: { kind: 'wall', startedAtMs: start.startedAtMs },
      now: () => (clock.now() - start.epoch) / 1000,
      title,
      note: (note) => io.stderr(`probe-lens: note: ${note}\n`),
    });
    return { output, text: undefined, live: false };
  }
  const text = format === 'text' ? textOutput(sink, header['target'] === 'cluster' ? 'cluster' : 'reported') : undefined;
  return { output: text ?? jsonlOutput(sink, header, { live: true }), text, live: sink.live };
}

export interface Session {
  /** What runs, stopped in this order when the session ends (the engine, then its target). */
  readonly running: readonly Disposable[];
  readonly output: SessionOutput;
  readonly text: ReturnType<typeof textOutput> | undefined;
  readonly live: boolean;
  /**
   * Hands the session the way to end itself when it cannot go on (the cluster forbids the
   * streams its probes need): `fail` stops everything at once, says why, and the run exits 1.
   */
  readonly onFailure?: (fail: (why: string) => void) => void;
}

/** A run that ended before `--for` because it could not go on. */
export const RUN_FAILED_EXIT = 1;

/**
 * Runs until `--for`, Ctrl-C or its reader going away (exit 0), or until it cannot go on (exit 1)
 * or a bug surfaces (exit 70); whichever comes first stops everything it started, finishes the
 * output, and — for an early end — says why as the last line on stderr.
 */
export function runSession(session: Session, durationMs: number | undefined, io: CliIo): Promise<number> {
  const { running, output, text } = session;
  return new Promise((resolve) => {
    const redraw = text && session.live ? setInterval(() => text.redraw(), REDRAW_MS) : undefined;
    let finished = false;
    const stop = (early?: { readonly code: number; readonly why: string }) => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      clearInterval(redraw);
      releaseInterrupt();
      releaseFault();
      for (const part of running) part.dispose();
      output.finish();
      if (early) io.stderr(`probe-lens: ${early.why}\n`);
      resolve(early?.code ?? 0);
    };
    const deadline = durationMs === undefined ? undefined : setTimeout(stop, durationMs);
    const releaseInterrupt = io.onInterrupt(() => stop());
    const releaseFault = io.onFault((error) => stop({ code: INTERNAL_ERROR_EXIT, why: internalErrorText(error) }));
    // Told from inside what runs (a notice of the cluster's): stopped once that call has returned.
    session.onFailure?.((why) => queueMicrotask(() => stop({ code: RUN_FAILED_EXIT, why })));
  });
}
