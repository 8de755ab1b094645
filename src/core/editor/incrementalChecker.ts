import { DEFAULT_LIMITS, type ManifestDocument, type ManifestLimits, parseManifest, type PodSpecModel, type ServiceModel, servicesOf } from '../manifest';
import { checkAcrossDocuments, checkEachDocument, compareFindings } from '../rules/run';
import type { Finding, RuleContext } from '../rules/types';
import { containsPosition, type Position, shiftRange } from '../text/range';
import { splitDocuments } from '../manifest/documentChunks';
import { chunkPosition, type LineMap, lineMapBetween, placeRange } from './lineMap';

export interface CheckSettings {
  readonly disabledRules: ReadonlySet<string>;
  readonly context: RuleContext;
  readonly limits?: ManifestLimits;
}

/** One chunk read on its own: models and findings in the chunk's own lines and document indices. */
interface CheckedChunk {
  readonly documents: readonly ManifestDocument[];
  readonly findings: readonly Finding[];
}

/** A chunk of the current text: where it sits in the file, and what was read from it. */
export interface PlacedChunk {
  readonly firstLine: number;
  /** File-wide index of the chunk's first non-empty document. */
  readonly firstDocument: number;
  readonly documents: readonly ManifestDocument[];
  /**
   * Set when the chunk's text does not parse: `documents` are those of its last readable text,
   * and this maps their lines onto the current ones.
   */
  readonly stale?: LineMap;
}

/**
 * A pod spec of the file, with what turns its chunk-relative ranges into file positions: use
 * `placeRange` and `chunkPosition` (`lineMap.ts`), which also follow a stale model's map.
 */
export interface PlacedPodSpec {
  readonly spec: PodSpecModel;
  /** File-wide index of its document. */
  readonly document: number;
  readonly lineOffset: number;
  /** The model is the last readable version of a document that does not parse now. */
  readonly stale?: LineMap;
}

/** A document of the file with its file-wide index (what `desiredPodsOf` takes). */
export interface IndexedDocument {
  readonly index: number;
  readonly podSpecs: readonly PodSpecModel[];
}

/**
 * What the checker made of one version of a file. Immutable, so the views of it that editor
 * surfaces ask for several times a second are built once, on first use.
 */
export class ManifestSnapshot {
  private placedPodSpecs: readonly PlacedPodSpec[] | undefined;
  private indexedDocuments: readonly IndexedDocument[] | undefined;
  private ownServices: readonly ServiceModel[] | undefined;

  constructor(
    readonly chunks: readonly PlacedChunk[],
    /** Every finding, in file positions, sorted as `checkText` sorts them. */
    readonly findings: readonly Finding[],
    /** How many chunks had to be read for this version (the others were reused). */
    readonly chunksRead: number,
  ) {}

  get podSpecs(): readonly PlacedPodSpec[] {
    this.placedPodSpecs ??= this.chunks.flatMap((chunk) =>
      chunk.documents.flatMap((document) =>
        document.podSpecs.map((spec) => ({ spec, document: chunk.firstDocument + document.source.index, lineOffset: chunk.firstLine, ...(chunk.stale ? { stale: chunk.stale } : {}) })),
      ),
    );
    return this.placedPodSpecs;
  }

  /** The documents in file order, each with its file-wide index (what `desiredPodsOf` takes). */
  get documents(): readonly IndexedDocument[] {
    this.indexedDocuments ??= this.chunks.flatMap((chunk) => chunk.documents.map((document) => ({ index: chunk.firstDocument + document.source.index, podSpecs: document.podSpecs })));
    return this.indexedDocuments;
  }

  /** The Services the file defines: what the rules looking across documents need of other files. */
  get services(): readonly ServiceModel[] {
    this.ownServices ??= this.chunks.flatMap((chunk) => servicesOf(chunk.documents));
    return this.ownServices;
  }

  /** Some document does not parse now and shows its last readable version. */
  get stale(): boolean {
    return this.chunks.some((chunk) => chunk.stale !== undefined);
  }

  /** The pod spec whose range holds a file position, if any. */
  podSpecAt(position: Position): PlacedPodSpec | undefined {
    return this.podSpecs.find((placed) => containsPosition(placed.spec.range, chunkPosition(placed, position)));
  }
}

export const EMPTY_SNAPSHOT = new ManifestSnapshot([], [], 0);

/** A chunk's text that parsed, and what was read from it: what a later unreadable version shows meanwhile. */
interface ReadableChunk {
  readonly text: string;
  readonly checked: CheckedChunk;
}

/**
 * Checks successive versions of one file, re-reading only the documents whose text changed: a
 * keystroke in one document of twenty costs that document, not the file. The findings are the
 * ones `checkText` gives for the whole text, except that the per-file visit budget (many small
 * alias bombs) is counted per document here.
 *
 * A document whose text stops parsing (a key typed before its colon) keeps the models and
 * findings of its last readable text, moved with the edit, plus the syntax error: code lenses do
 * not vanish and come back, and unrelated findings stay in Problems, while the user types.
 */
export class IncrementalChecker {
  private chunks = new Map<string, CheckedChunk>();
  /** Per place among the file's chunks, the last text there that parsed. */
  private lastReadable: readonly (ReadableChunk | undefined)[] = [];
  private settingsKey = '';

  constructor(private readonly file: string) {}

  /** `services`: those of the manifests checked with this one (the editor's other open files). */
  check(text: string, settings: CheckSettings, services: readonly ServiceModel[] = []): ManifestSnapshot {
    const limits = settings.limits ?? DEFAULT_LIMITS;
    const key = settingsKeyOf(settings);
    if (key !== this.settingsKey) {
      this.chunks.clear();
      this.settingsKey = key;
      // What a stale document shows must follow the settings too (a rule turned off goes at once).
      this.lastReadable = this.lastReadable.map((readable) => readable && { text: readable.text, checked: this.read(readable.text, settings, limits) });
    }
    const pieces = text.length > limits.maxFileChars ? undefined : splitDocuments(text);
    const whole = () => {
      this.chunks.clear();
      this.lastReadable = [];
      return this.placeAll([{ text, firstLine: 0 }], settings, limits, services);
    };
    if (!pieces || pieces.length > limits.maxDocuments) return whole();
    const snapshot = this.placeAll(pieces, settings, limits, services);
    // Past the document limit, only a whole read reports the Y02 where it falls.
    const documentCount = snapshot.chunks.reduce((n, c) => n + c.documents.length, 0);
    return documentCount > limits.maxDocuments ? whole() : snapshot;
  }

  private placeAll(pieces: readonly { text: string; firstLine: number }[], settings: CheckSettings, limits: ManifestLimits, services: readonly ServiceModel[]): ManifestSnapshot {
    const next = new Map<string, CheckedChunk>();
    const placed: PlacedChunk[] = [];
    const findings: Finding[] = [];
    // A document is known by its place among the file's chunks: when their number changes (a
    // `---` typed or removed) no unreadable chunk can be told which one it was.
    const previous = pieces.length === this.lastReadable.length ? this.lastReadable : [];
    const readable: (ReadableChunk | undefined)[] = [];
    let chunksRead = 0;
    let firstDocument = 0;
    for (const [slot, piece] of pieces.entries()) {
      const { text } = piece;
      let checked = next.get(text) ?? this.chunks.get(text);
      if (!checked) {
        checked = this.read(text, settings, limits);
        chunksRead++;
      }
      next.set(text, checked);
      const unreadable = isUnreadable(checked);
      const last = unreadable ? previous[slot] : undefined;
      readable.push(unreadable ? last : { text, checked });
      const shown = placeChunk(piece, firstDocument, checked, last);
      placed.push(shown.chunk);
      for (const finding of shown.findings) findings.push(finding);
      firstDocument += shown.chunk.documents.length;
    }
    this.chunks = next;
    this.lastReadable = readable;
    // Rules looking across documents are re-run on every version: another document's Service
    // can change their verdict without this document changing.
    const context = { ...settings.context, services: [...services, ...placed.flatMap((chunk) => servicesOf(chunk.documents))] };
    for (const chunk of placed) {
      const across = checkAcrossDocuments(chunk.documents, { file: this.file, disabledRules: settings.disabledRules, context });
      for (const finding of across) findings.push(chunk.stale ? staleFinding(finding, chunk) : shiftFinding(finding, chunk.firstLine, chunk.firstDocument));
    }
    return new ManifestSnapshot(placed, findings.sort(compareFindings), chunksRead);
  }

  private read(text: string, settings: CheckSettings, limits: ManifestLimits): CheckedChunk {
    const minorVersion = settings.context.minorVersion;
    const manifest = parseManifest(text, { minorVersion, limits });
    const findings = checkEachDocument(manifest, { file: this.file, disabledRules: settings.disabledRules, context: settings.context });
    return { documents: manifest.documents, findings };
  }
}

/**
 * What a chunk shows: what was read from its text, or, when that does not parse and an earlier
 * text did (`last`), that earlier text's models and findings moved onto the current lines, with
 * the syntax error of the current one.
 */
function placeChunk(piece: { text: string; firstLine: number }, firstDocument: number, checked: CheckedChunk, last: ReadableChunk | undefined): { chunk: PlacedChunk; findings: Finding[] } {
  if (!last) {
    return { chunk: { firstLine: piece.firstLine, firstDocument, documents: checked.documents }, findings: checked.findings.map((f) => shiftFinding(f, piece.firstLine, firstDocument)) };
  }
  const chunk: PlacedChunk = { firstLine: piece.firstLine, firstDocument, documents: last.checked.documents, stale: lineMapBetween(last.text, piece.text) };
  const syntax = checked.findings.filter(isSyntaxFinding).map((f) => shiftFinding(f, piece.firstLine, firstDocument));
  return { chunk, findings: [...last.checked.findings.map((f) => staleFinding(f, chunk)), ...syntax] };
}

/** Some document of the chunk is not YAML kubectl reads (a template is read as far as it goes, and is not). */
function isUnreadable(checked: CheckedChunk): boolean {
  return checked.documents.some((document) => !document.source.templated && document.source.errors.length > 0);
}

/** What an unreadable chunk reports of itself: its syntax error, or a limit that stopped the read. */
function isSyntaxFinding(finding: Finding): boolean {
  return (finding.rule === 'Y01' && finding.severity === 'error') || finding.rule === 'Y02';
}

/**
 * A finding of a chunk's last readable text, placed in the current one. Without its fix: edits
 * computed for the old text would not leave the intended text in the new one.
 */
function staleFinding(finding: Finding, chunk: PlacedChunk): Finding {
  const placement = { lineOffset: chunk.firstLine, ...(chunk.stale ? { stale: chunk.stale } : {}) };
  const { rule, severity, kind, message, file, path, container } = finding;
  return { rule, severity, ...(kind ? { kind } : {}), message, file, doc: finding.doc + chunk.firstDocument, path, range: placeRange(placement, finding.range), ...(container !== undefined ? { container } : {}) };
}

function settingsKeyOf(settings: CheckSettings): string {
  return JSON.stringify([[...settings.disabledRules].sort(), settings.context, settings.limits ?? null]);
}

function shiftFinding(finding: Finding, lines: number, documents: number): Finding {
  if (lines === 0 && documents === 0) return finding;
  const shifted = { ...finding, doc: finding.doc + documents, range: shiftRange(finding.range, lines) };
  return finding.fixes ? { ...shifted, fixes: finding.fixes.map((fix) => ({ ...fix, edits: fix.edits.map((e) => ({ ...e, range: shiftRange(e.range, lines) })) })) } : shifted;
}

