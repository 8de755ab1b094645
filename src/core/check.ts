import { DEFAULT_MINOR_VERSION, type ManifestLimits, parseManifest } from './manifest';
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

/** Parses and checks one file's text: what `probe-lens check` and the editor's diagnostics show. */
export function checkText(text: string, options: CheckOptions): Finding[] {
  const minorVersion = options.minorVersion ?? DEFAULT_MINOR_VERSION;
  const manifest = parseManifest(text, { minorVersion, ...(options.limits ? { limits: options.limits } : {}) });
  return checkManifest(manifest, {
    file: options.file,
    ...(options.disabledRules ? { disabledRules: options.disabledRules } : {}),
    context: { minorVersion, ...(options.expectedStartupSeconds !== undefined ? { expectedStartupSeconds: options.expectedStartupSeconds } : {}) },
  });
}

/** `1.33`, `v1.33` or `1.33.2` → 33; anything else is not a Kubernetes 1.x version. */
export function parseKubernetesVersion(text: string): number | undefined {
  const match = /^v?1\.(\d{1,3})(\.\d+)?$/.exec(text.trim());
  return match ? Number(match[1]) : undefined;
}
