import { TextDecoder } from 'node:util';

/**
 * A file's bytes as text, read the way kubectl reads a manifest (cli-runtime's FileVisitor:
 * `unicode.BOMOverride(unicode.UTF8.NewDecoder())`): UTF-8, its byte-order mark dropped, or
 * UTF-16 when a byte-order mark says so. Anything else — a binary, Latin-1 — is not a manifest,
 * and is refused before the YAML parser turns it into a wall of syntax errors.
 */

export type DecodedText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

// `fatal`: a malformed sequence throws instead of becoming U+FFFD. A leading BOM is dropped
// (ignoreBOM is false), so columns on the first line are the editor's.
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const UTF16LE = new TextDecoder('utf-16le', { fatal: true });
const UTF16BE = new TextDecoder('utf-16be', { fatal: true });

export function decodeText(bytes: Uint8Array): DecodedText {
  const decoder = byteOrderMarked(bytes) ?? UTF8;
  // A NUL is never in YAML text and nearly always in a binary: the cheap test comes first.
  if (decoder === UTF8 && bytes.includes(0)) return notText('it contains NUL bytes');
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return notText(decoder === UTF8 ? 'not valid UTF-8' : 'not valid UTF-16');
  }
  if (decoder !== UTF8 && text.includes('\0')) return notText('it contains NUL characters');
  return { ok: true, text };
}

/** UTF-16 announced by its byte-order mark (FF FE little-endian, FE FF big-endian). */
function byteOrderMarked(bytes: Uint8Array): TextDecoder | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return UTF16LE;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return UTF16BE;
  return undefined;
}

function notText(why: string): DecodedText {
  return { ok: false, reason: `not a text file (${why})` };
}
