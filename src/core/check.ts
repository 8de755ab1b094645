import { DEFAULT_MINOR_VERSION, type Manifest, type ManifestLimits, parseManifest, servicesOf } from './manifest';
import { checkManifest } from './rules/run';
import type { Finding } from './rules/types';

export interface CheckOptions {
  readonly file: string;
  readonly disabledRules?: ReadonlySet<string>;
  /** Minor version of Kubernetes 1.x (default 33). */
  readonly minorVersion?: number;
  readonly expectedStartupSeconds?: number;
  readonly limits?: ManifestLimits;
}

/** One file to check, and (for a Helm template) what would have it rendered (Y03 says it). */
export interface CheckedText {
  readonly file: string;
  readonly text: string;
  readonly renderingHint?: string;
}

/** Parses and checks one file's text: what `probe-lens check` and the editor's diagnostics show. */
export function checkText(text: string, options: CheckOptions): Finding[] {
  return checkTexts([{ file: options.file, text }], options)[0] ?? [];
}

/**
 * Checks several files as one set of manifests, the way `kubectl apply -f` applies them
 * together: each file's findings, where the rules looking across documents (a Service that
 * selects a Job's pods, L17) see the documents of every file.
 */
export function checkTexts(files: readonly CheckedText[], options: Omit<CheckOptions, 'file'>): Finding[][] {
  const minorVersion = options.minorVersion ?? DEFAULT_MINOR_VERSION;
  const parsed = files.map((file) => ({ ...file, manifest: parseManifest(file.text, { minorVersion, ...(options.limits ? { limits: options.limits } : {}) }) }));
  return checkManifests(parsed, options);
}

/** `checkTexts` for manifests already parsed (with the same minor version): a render's, whose probes are also placed. */
export function checkManifests(files: readonly (Omit<CheckedText, 'text'> & { readonly manifest: Manifest })[], options: Omit<CheckOptions, 'file' | 'limits'>): Finding[][] {
  const minorVersion = options.minorVersion ?? DEFAULT_MINOR_VERSION;
  const services = files.map(({ manifest }) => servicesOf(manifest.documents));
  return files.map(({ file, manifest, renderingHint }, i) =>
    checkManifest(manifest, {
      file,
      ...(options.disabledRules ? { disabledRules: options.disabledRules } : {}),
      context: {
        minorVersion,
        ...(options.expectedStartupSeconds !== undefined ? { expectedStartupSeconds: options.expectedStartupSeconds } : {}),
        ...(renderingHint ? { renderingHint } : {}),
        // The other files' Services; checkManifest adds the file's own.
        services: services.flatMap((own, j) => (j === i ? [] : own)),
      },
    }),
  );
}

/**
 * The Kubernetes 1.x minor versions the rules know. The oldest is 1.21, the first release with a
 * probe field the schema gates by version (probe-level terminationGracePeriodSeconds); older ones
 * differ in ways the rules do not model (startupProbe off before 1.18, exec timeouts ignored
 * before 1.20, …). The newest is 1.37, whose alpha fields (grpc.mode, httpGet.protocol) are the
 * latest the schema knows: a later release may add probe fields the rules would call unknown.
 */
export const SUPPORTED_MINOR_VERSIONS = { oldest: 21, newest: 37 } as const;

/**
 * `1.33` or `v1.33` → 33, for a supported minor version; anything else — another major, 1.0, a
 * patch version (the rules do not tell patch releases apart, so `1.33.2` would promise more than
 * they check) — is undefined.
 */
export function parseKubernetesVersion(text: string): number | undefined {
  const match = /^v?1\.(0|[1-9]\d*)$/.exec(text.trim());
  const minor = match ? Number(match[1]) : undefined;
  if (minor === undefined || minor < SUPPORTED_MINOR_VERSIONS.oldest || minor > SUPPORTED_MINOR_VERSIONS.newest) return undefined;
  return minor;
}

/**
 * A manifest as something to play (run, replay, recommend for): its YAML must read — a syntax
 * error or a file beyond the limits (Y01, Y02) — and some container must have a probe. What the
 * API server would reject is no obstacle: seeing it run is often the point, so its findings are
 * handed back for the caller to mention.
 */
export type PlayableManifest =
  | { readonly ok: true; readonly manifest: Manifest; readonly findings: readonly Finding[] }
  | { readonly ok: false; readonly unreadable: Finding }
  | { readonly ok: false; readonly unreadable: undefined };

export function playableManifest(text: string, file: string, minorVersion: number): PlayableManifest {
  const manifest = parseManifest(text, { minorVersion });
  const findings = checkManifest(manifest, { file, context: { minorVersion } });
  const unreadable = findings.find((f) => f.rule === 'Y01' || f.rule === 'Y02');
  if (unreadable) return { ok: false, unreadable };
  if (!manifest.documents.some((d) => d.podSpecs.some((p) => p.containers.some((c) => c.probes.length > 0)))) return { ok: false, unreadable: undefined };
  return { ok: true, manifest, findings };
}
