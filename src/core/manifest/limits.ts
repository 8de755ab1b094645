/**
 * Bounds that keep hostile or accidental input (a 50 MB file, an alias bomb, ten thousand
 * documents) from costing unbounded time or memory. Hitting one is reported as a Y02 finding.
 */
export interface ManifestLimits {
  /** Larger files are not parsed at all (UTF-16 code units, ≈ bytes for YAML). */
  readonly maxFileChars: number;
  /** Documents after this many are not parsed. */
  readonly maxDocuments: number;
  /** Nodes the decoder may visit in one document, counting every alias expansion again. */
  readonly maxNodeVisitsPerDocument: number;
  /** Deepest nesting followed, aliases included (a self-referencing alias is a cycle). */
  readonly maxDepth: number;
  /**
   * Documents nesting deeper than this are not composed: the YAML composer recurses per level,
   * and around a thousand levels exhaust the stack (and can abort the process later).
   */
  readonly maxNesting: number;
  /** Nodes the decoder may visit in the whole file: many small alias bombs add up. */
  readonly maxNodeVisitsPerFile: number;
}

export const DEFAULT_LIMITS: ManifestLimits = {
  maxFileChars: 8 * 1024 * 1024,
  maxDocuments: 10_000,
  maxNodeVisitsPerDocument: 200_000,
  maxDepth: 64,
  maxNesting: 500,
  maxNodeVisitsPerFile: 4_000_000,
};
