/**
 * A multi-document file cut at its `---` lines, as kubectl cuts it (apimachinery's YAMLReader)
 * before handing each piece to go-yaml. YAML forbids `---` at the start of a line inside any
 * node (the c-forbidden production), so such a line always starts a new document: reading the
 * pieces one by one gives the same documents as reading the whole file, a template or a syntax
 * error in one piece cannot spill into the next, and an edit re-reads only its own piece.
 */
export interface DocumentChunk {
  /** The chunk's text, from its `---` line (none for the first) up to the next one. */
  readonly text: string;
  /** Offset in the file at which the chunk starts. */
  readonly offset: number;
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
      chunks.push({ text: text.slice(chunkStart, lineStart), offset: chunkStart, firstLine: chunkLine });
      chunkStart = lineStart;
      chunkLine = line;
    }
    lineStart = lineEnd + 1;
  }
  chunks.push({ text: text.slice(chunkStart), offset: chunkStart, firstLine: chunkLine });
  return chunks;
}
