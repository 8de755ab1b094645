import { readFileSync } from 'node:fs';
import { decodeText } from './decodeText';
import { UsageError } from './usage';

/** What a command may touch of the process, so tests can run commands in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): Uint8Array;
  readonly cwd: string;
  readonly color: boolean;
  readonly version: string;
  /** Calls `stop` on Ctrl-C, SIGTERM, SIGHUP (the terminal closed) or once stdout's reader has gone; returns the function that stops listening. */
  onInterrupt(stop: () => void): () => void;
  /**
   * Calls `stop` with an error nothing caught (a bug): the running session ends with it instead
   * of the process dying with kubectl left behind and the output cut. Returns the release.
   */
  onFault(stop: (error: unknown) => void): () => void;
}

/** sysexits' EX_SOFTWARE: Probe Lens itself failed. Not 1, which `check` and `probe` use for findings. */
export const INTERNAL_ERROR_EXIT = 70;

/** An error nothing caught, for stderr: what it is, that it is ours, and its stack for the report. */
export function internalErrorText(error: unknown): string {
  const stack = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return `internal error (a bug in Probe Lens: please report it with what follows): ${stack}`;
}

export function processIo(version: string): CliIo {
  // `probe-lens check … | head`: once the reader has gone, output stops and a running session
  // stops as on Ctrl-C, instead of dying on an unhandled EPIPE. Told through `whenReaderGone`, never
  // through a 'SIGPIPE' listener: listening to that signal makes node catch the real SIGPIPE the
  // kernel sends for every write to any closed socket (kubectl proxy closing a stream the way
  // the kubelet does), and a run would stop there as if the user had.
  let readerGone = false;
  const whenReaderGone = new Set<() => void>();
  const faults = new Set<(error: unknown) => void>();
  // One handler for both: a session that listens ends with the error; without one, the error is
  // said and the process ends with EX_SOFTWARE (node's own exit 1 would read as "findings").
  const fault = (error: unknown) => {
    const listeners = [...faults];
    if (listeners.length > 0) {
      for (const stop of listeners) stop(error);
      return;
    }
    process.stderr.write(`probe-lens: ${internalErrorText(error)}\n`);
    process.exit(INTERNAL_ERROR_EXIT);
  };
  process.on('uncaughtException', fault);
  process.on('unhandledRejection', fault);
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // EPIPE: the pipe's reader exited; EIO: the terminal hung up (its window closed).
    if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
    if (readerGone) return;
    readerGone = true;
    for (const stop of [...whenReaderGone]) stop();
  });
  return {
    stdout: (text) => {
      if (!readerGone) process.stdout.write(text);
    },
    stderr: (text) => process.stderr.write(text),
    readStdin: () => readFileSync(0),
    cwd: process.cwd(),
    color: wantsColor(),
    version,
    onInterrupt(stop) {
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      process.once('SIGHUP', stop);
      whenReaderGone.add(stop);
      return () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        process.off('SIGHUP', stop);
        whenReaderGone.delete(stop);
      };
    },
    onFault(stop) {
      faults.add(stop);
      return () => faults.delete(stop);
    },
  };
}

/** https://no-color.org and FORCE_COLOR, else colour only on a terminal. */
function wantsColor(): boolean {
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR !== undefined) return process.env.FORCE_COLOR !== '0';
  return process.stdout.isTTY === true;
}

const READ_ERRORS: Readonly<Record<string, string>> = { ENOENT: 'no such file', EISDIR: 'is a directory', EACCES: 'permission denied' };

export type ReadText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/** A file's text, or standard input's for `-`; what cannot be read, or is not text, says why. */
export function readText(name: string, io: CliIo, label = ''): ReadText {
  const what = `${label}${name === '-' ? 'standard input' : name}`;
  let bytes: Uint8Array;
  try {
    bytes = name === '-' ? io.readStdin() : readFileSync(name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = Object.hasOwn(READ_ERRORS, code) ? READ_ERRORS[code] : (error as Error).message;
    return { ok: false, message: `cannot read ${what}: ${reason}` };
  }
  const decoded = decodeText(bytes);
  return decoded.ok ? decoded : { ok: false, message: `cannot read ${what}: ${decoded.reason}` };
}

/** A file's text for a command that needs it: what cannot be read is bad input (exit 2). */
export function readInput(name: string, io: CliIo, label = ''): string {
  const read = readText(name, io, label);
  if (!read.ok) throw new UsageError(read.message);
  return read.text;
}
