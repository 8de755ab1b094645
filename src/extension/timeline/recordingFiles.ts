import { closeSync, createReadStream, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { EngineEvent } from '../../core/engine/events';
import type { RunHeader } from '../../core/timeline/jsonl';
import { baseName } from '../documents/fileNames';
import { jsonLinesChunks } from './jsonLinesChunks';
import { MAX_BUFFERED_RECORDING_BYTES, MAX_RECORDING_BYTES, type Recording, RecordingReader } from './recordingReader';

/** Expected failures are values (design §5): a reason to show. */
export type ReadOutcome = { readonly ok: true; readonly recording: Recording; readonly bytes: number } | { readonly ok: false; readonly reason: string };

/** Bytes read at a time from disk. */
const READ_CHUNK_BYTES = 4 * 1024 * 1024;

/** The largest recording Probe Lens opens from `uri`: a file on disk is streamed, others are read whole. */
export function recordingLimit(uri: vscode.Uri): number {
  return uri.scheme === 'file' ? MAX_RECORDING_BYTES : MAX_BUFFERED_RECORDING_BYTES;
}

/**
 * Reads a recording (`probe-lens simulate|run --format jsonl`, or an export), streamed from disk
 * line by line into a store of `capacity` events: never the whole file as one string. Refuses
 * files above `recordingLimit`, saying why. `cancel` stops it between chunks.
 */
export async function readRecording(uri: vscode.Uri, capacity: number, cancel?: vscode.CancellationToken): Promise<ReadOutcome> {
  let size: number;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) return { ok: false, reason: `${baseName(uri)} is a folder, not a recording` };
    size = stat.size;
  } catch (error) {
    return { ok: false, reason: `${baseName(uri)} cannot be read: ${messageOf(error)}` };
  }
  const limit = recordingLimit(uri);
  if (size > limit) {
    return {
      ok: false,
      reason: `${baseName(uri)} is ${gigabytes(size)}: Probe Lens opens recordings of up to ${gigabytes(limit)}, and keeps at most ${capacity.toLocaleString('en-US')} events of one (probeLens.timeline.maxEvents). Keep its first line (the run header) and the part you need, e.g. { head -n 1 FILE; tail -n 500000 FILE; } > part.jsonl`,
    };
  }
  const reader = new RecordingReader(capacity);
  try {
    if (uri.scheme === 'file') {
      const stream = createReadStream(uri.fsPath, { highWaterMark: READ_CHUNK_BYTES });
      try {
        for await (const chunk of stream) {
          if (cancel?.isCancellationRequested) return { ok: false, reason: 'cancelled' };
          reader.feed(chunk as Buffer);
          // Let the extension host breathe between chunks: probes of running sessions are timers on this thread.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        stream.destroy();
      }
    } else {
      // Another file system (a remote or virtual workspace): it hands over the bytes at once, already bounded above.
      const bytes = await vscode.workspace.fs.readFile(uri);
      for (let at = 0; at < bytes.length; at += READ_CHUNK_BYTES) {
        if (cancel?.isCancellationRequested) return { ok: false, reason: 'cancelled' };
        reader.feed(bytes.subarray(at, at + READ_CHUNK_BYTES));
      }
    }
  } catch (error) {
    return { ok: false, reason: `${baseName(uri)} cannot be read: ${messageOf(error)}` };
  }
  return { ok: true, recording: reader.finish(), bytes: size };
}

/**
 * Writes `toJsonLines(header, events)` to `path` at once, through a temporary file renamed into
 * place (a reader never sees half a file). Synchronous: it runs while the extension deactivates,
 * when a window reload would not wait for a promise.
 */
export function writeRecordingSync(path: string, header: RunHeader, events: Iterable<EngineEvent>): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    for (const chunk of jsonLinesChunks(header, events)) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/** The same as `writeRecordingSync`, without blocking (*Export…*); any file system. */
export async function writeRecording(uri: vscode.Uri, header: RunHeader, events: Iterable<EngineEvent>): Promise<void> {
  if (uri.scheme !== 'file') {
    const encoder = new TextEncoder();
    const parts = [...jsonLinesChunks(header, events)].map((chunk) => encoder.encode(chunk));
    const bytes = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    await vscode.workspace.fs.writeFile(uri, bytes);
    return;
  }
  const temporary = `${uri.fsPath}.${process.pid}.tmp`;
  const file = await open(temporary, 'w');
  try {
    for (const chunk of jsonLinesChunks(header, events)) await file.write(chunk);
  } finally {
    await file.close();
  }
  await rename(temporary, uri.fsPath);
}

function gigabytes(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
