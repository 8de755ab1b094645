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
  /** Calls `stop` on Ctrl-C or SIGTERM; returns the function that stops listening. */
  onInterrupt(stop: () => void): () => void;
}

export function processIo(version: string): CliIo {
  // `probe-lens check … | head`: once the reader has gone, output stops and a running session
  // stops as on Ctrl-C, instead of dying on an unhandled EPIPE.
  let readerGone = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (readerGone) return;
    readerGone = true;
    process.emit('SIGPIPE');
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
      process.once('SIGPIPE', stop);
      return () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        process.off('SIGPIPE', stop);
      };
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
