import { DEFAULT_LIMITS } from '../manifest/limits';

/**
 * Why a chart or an overlay produced no manifests: every way a render can end without output is
 * a value, placed (when the renderer names one) at the file and line the user fixes.
 */
export interface RenderFailure {
  readonly kind: RenderFailureKind;
  /** One sentence for a person, naming the renderer's own words where they help. */
  readonly message: string;
  /** The file to fix (absolute), when the renderer names one or the failure is about one. */
  readonly file?: string;
  /** 0-based line and character in `file`. */
  readonly line?: number;
  readonly character?: number;
}

export type RenderFailureKind =
  /** No helm/kubectl where the settings or the PATH say: rendering is off, say how to turn it on. */
  | 'renderer-missing'
  /** A renderer that cannot render here (Helm 2, a kubectl without kustomize). */
  | 'renderer-unsupported'
  /** The renderer ran and refused: a template's syntax, `required`/`fail`, values against the schema. */
  | 'render-error'
  /** A chart dependency declared in Chart.yaml but absent from charts/ (`helm dependency build`). */
  | 'dependency-missing'
  /** What would reach the network or run a plugin (a remote kustomize base, a values URL). */
  | 'refused'
  | 'timed-out'
  | 'too-large'
  /** Neither a chart nor an overlay, a symlink loop, a file that cannot be read. */
  | 'unreadable';

export type RenderOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: RenderFailure };

/** The bounds of one render: a hung template or a runaway `range` ends as a failure, not a hang. */
export interface RenderBounds {
  readonly timeoutMs: number;
  /** Rendered output beyond this is a `too-large` failure (the manifest limits would refuse it anyway). */
  readonly maxOutputBytes: number;
}

/** A render's output is checked whole, so it gets the manifest reader's own size bound. */
export const DEFAULT_RENDER_BOUNDS: RenderBounds = { timeoutMs: 30_000, maxOutputBytes: DEFAULT_LIMITS.maxFileChars };

/**
 * A renderer that could not be started, in one sentence: which program, where it was looked for
 * (a bare name on PATH, a path where the user said), why, and what follows (`consequence`).
 */
export function rendererMissing(program: string, path: string, error: unknown, consequence: string): RenderFailure {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = path.includes('/') || path.includes('\\') ? `at ${path}` : `on PATH (as "${path}")`;
  const why = code === 'ENOENT' ? 'was not found' : code === 'EACCES' ? 'cannot be run (permission denied)' : `cannot be run (${error instanceof Error ? error.message : String(error)})`;
  return { kind: 'renderer-missing', message: `${program} ${why} ${where}: ${consequence}` };
}

/** A failure the renderer placed in a temporary copy, placed in the user's file instead. */
export function inOriginal(failure: RenderFailure, original: (path: string) => string): RenderFailure {
  return failure.file ? { ...failure, file: original(failure.file) } : failure;
}
