import { basename } from 'node:path';
import type { RealClock } from '../core/engine/clock';
import type { Disposable } from '../core/engine/disposable';
import { htmlOutput, type PageAssets } from './format/html';
import { jsonlOutput, type SessionOutput, textOutput } from './format/session';
import type { CliIo } from './io';

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
  const text = format === 'text' ? textOutput(sink) : undefined;
  return { output: text ?? jsonlOutput(sink, header), text, live: sink.live };
}

export interface Session {
  /** What runs, stopped in this order when the session ends (the engine, then its target). */
  readonly running: readonly Disposable[];
  readonly output: SessionOutput;
  readonly text: ReturnType<typeof textOutput> | undefined;
  readonly live: boolean;
}

/** Runs until `--for` or Ctrl-C, then stops everything it started; resolves with exit code 0. */
export function runSession(session: Session, durationMs: number | undefined, io: CliIo): Promise<number> {
  const { running, output, text } = session;
  return new Promise((resolve) => {
    const redraw = text && session.live ? setInterval(() => text.redraw(), REDRAW_MS) : undefined;
    let finished = false;
    const stop = () => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      clearInterval(redraw);
      releaseInterrupt();
      for (const part of running) part.dispose();
      output.finish();
      resolve(0);
    };
    const deadline = durationMs === undefined ? undefined : setTimeout(stop, durationMs);
    const releaseInterrupt = io.onInterrupt(stop);
  });
}
