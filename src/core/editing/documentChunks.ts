/**
 * A multi-document file cut at its `---` lines, so that an edit in one document re-reads only
 * that document. YAML forbids `---` at the start of a line inside any node (the c-forbidden
 * production): such a line always starts a new document, so reading the pieces one by one gives
 * the same documents as reading the whole file.
 */
export interface DocumentChunk {
  /** The chunk's text, from its `---` line (none for the first) up to the next one. */
  readonly text: string;
  /** 0-based line of the file on which the chunk starts. */
  readonly firstLine: number;
}

const DOCUMENT_START = /^---(?:[ \t\r]|$)/;

/**
 * The file's chunks in order, or `undefined` when the file has directives (`%YAML`, `%TAG`): they
 * belong to the document after them, across the cut, so such a file is read whole.
 */
export function splitDocuments(text: string): DocumentChunk[] | undefined {
  const chunks: DocumentChunk[] = [];
  let chunkStart = 0;
  let chunkLine = 0;
  let line = 0;
  for (let lineStart = 0; lineStart < text.length; line++) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const first = text.charCodeAt(lineStart);
    if (first === 0x25 /* % */) return undefined;
    if (first === 0x2d /* - */ && lineStart > chunkStart && DOCUMENT_START.test(text.slice(lineStart, Math.min(lineEnd, lineStart + 4)))) {
      chunks.push({ text: text.slice(chunkStart, lineStart), firstLine: chunkLine });
      chunkStart = lineStart;
      chunkLine = line;
    }
    lineStart = lineEnd + 1;
  }
  chunks.push({ text: text.slice(chunkStart), firstLine: chunkLine });
  return chunks;
}
