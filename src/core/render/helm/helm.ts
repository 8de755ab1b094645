import { resolve } from 'node:path';
import { runBounded } from '../../base/boundedProcess';
import { DEFAULT_RENDER_BOUNDS, type RenderBounds, type RenderFailure, type RenderOutcome, rendererMissing } from '../failure';
import { isUrl } from '../files';
import { readChartFile } from './chartFile';
import { helmFailure } from './helmFailure';

/** Which helm, and how the user names it (for the sentence when it cannot be run). */
export interface HelmConfig {
  /** `helm` (looked up on PATH) or a path: `--helm`, `probeLens.helm.path`. */
  readonly path: string;
  /** What the user does to name another helm: `pass --helm PATH`, `set probeLens.helm.path`. */
  readonly namedBy: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** One `helm template`: everything that changes what it renders. */
export interface ChartRequest {
  readonly root: string;
  readonly release: string;
  readonly namespace?: string;
  /** `-f` files after the chart's values.yaml, later wins; absolute paths. */
  readonly valuesFiles: readonly string[];
  readonly set: readonly string[];
  readonly setString: readonly string[];
  readonly apiVersions: readonly string[];
  /** Kubernetes 1.x: `.Capabilities.KubeVersion`, so the render and the rules target one version. */
  readonly minorVersion: number;
}

export interface HelmVersion {
  readonly major: number;
  /** `v4.1.4`. */
  readonly text: string;
}

/**
 * `helm template`, offline: no `--repo`, no `--dependency-update`, no post-renderer, no
 * `--validate` (which asks a cluster); `lookup` gives empty, as helm does without a cluster.
 * Plugins are off (HELM_NO_PLUGINS), so nothing but helm itself runs.
 */
export function helmTemplateArgs(request: ChartRequest): string[] {
  return [
    'template',
    request.release,
    request.root,
    '--kube-version',
    `v1.${request.minorVersion}.0`,
    ...(request.namespace ? ['--namespace', request.namespace] : []),
    ...request.valuesFiles.flatMap((f) => ['--values', f]),
    ...request.set.flatMap((s) => ['--set', s]),
    ...request.setString.flatMap((s) => ['--set-string', s]),
    ...request.apiVersions.flatMap((v) => ['--api-versions', v]),
  ];
}

/** Runs one helm binary; remembers its version (asked once, it decides whether helm can render at all). */
export class Helm {
  private version: Promise<RenderOutcome<HelmVersion>> | undefined;

  constructor(readonly config: HelmConfig) {}

  versionOf(): Promise<RenderOutcome<HelmVersion>> {
    this.version ??= this.askVersion();
    return this.version;
  }

  async template(request: ChartRequest, bounds: RenderBounds = DEFAULT_RENDER_BOUNDS, signal?: AbortSignal): Promise<RenderOutcome<string>> {
    const version = await this.versionOf();
    if (!version.ok) return version;
    const refused = refusedValues(request);
    if (refused) return { ok: false, failure: refused };
    const result = await runBounded(this.config.path, helmTemplateArgs(request), {
      timeoutMs: bounds.timeoutMs,
      maxOutputBytes: bounds.maxOutputBytes + 1,
      env: this.env(),
      ...(signal ? { signal } : {}),
    });
    switch (result.kind) {
      case 'notStarted':
        return { ok: false, failure: this.missing(result.error) };
      case 'aborted':
        return { ok: false, failure: { kind: 'timed-out', message: 'helm template was cancelled' } };
      case 'timedOut':
        return { ok: false, failure: { kind: 'timed-out', message: `helm template did not finish within ${bounds.timeoutMs / 1000} s (a template that loops, or a chart too large to render here)`, file: `${request.root}/Chart.yaml`, line: 0 } };
      case 'exited':
        // Chart.yaml is read only to place a failure (a dependency's line, helm's chart-relative paths).
        if (result.exitCode !== 0) return { ok: false, failure: helmFailure(result.stderr.toString('utf8') || result.stderrTail, readChartFile(request.root), process.cwd()) };
        if (result.stdout.length > bounds.maxOutputBytes)
          return { ok: false, failure: { kind: 'too-large', message: `helm template printed more than ${Math.round(bounds.maxOutputBytes / 1024 / 1024)} MB: too large to check`, file: `${request.root}/Chart.yaml`, line: 0 } };
        return { ok: true, value: result.stdout.toString('utf8') };
    }
  }

  private env(): Record<string, string | undefined> {
    return { ...(this.config.env ?? process.env), HELM_NO_PLUGINS: '1' };
  }

  private async askVersion(): Promise<RenderOutcome<HelmVersion>> {
    const result = await runBounded(this.config.path, ['version', '--short'], { timeoutMs: 10_000, maxOutputBytes: 64 * 1024, env: this.env() });
    if (result.kind === 'notStarted') return { ok: false, failure: this.missing(result.error) };
    if (result.kind !== 'exited') return { ok: false, failure: { kind: 'renderer-unsupported', message: `helm at "${this.config.path}" did not answer \`helm version\` within 10 s` } };
    const version = parseHelmVersion(result.stdout.toString('utf8'));
    if (version === undefined)
      return { ok: false, failure: { kind: 'renderer-unsupported', message: `"${this.config.path}" does not answer \`helm version\` like helm: ${(result.stdout.toString('utf8') || result.stderrTail).trim().slice(0, 120)}` } };
    if (version.major < 3)
      return { ok: false, failure: { kind: 'renderer-unsupported', message: `${version.text} at "${this.config.path}" is Helm ${version.major}, which Probe Lens does not render with (its templates differ and it needs Tiller): install Helm 3 or 4, or ${this.config.namedBy}` } };
    return { ok: true, value: version };
  }

  private missing(error: unknown): RenderFailure {
    return rendererMissing('helm', this.config.path, error, `charts are not rendered; install Helm 3 or 4, or ${this.config.namedBy}`);
  }
}

/**
 * `helm version --short` → its major version: `v4.1.4+g05fa379`, `v3.17.2+gcc0bbbd`; Helm 2
 * answers `Client: v2.17.0+ga690bad` (and then fails to reach Tiller).
 */
export function parseHelmVersion(output: string): HelmVersion | undefined {
  const match = /^(?:Client: )?(v(\d+)\.\d+\.\d+)/m.exec(output.trim());
  if (!match) return undefined;
  return { major: Number(match[2]), text: match[1] as string };
}

/** Values helm would fetch (`-f https://…`): rendering never reaches the network. */
function refusedValues(request: ChartRequest): RenderFailure | undefined {
  const remote = request.valuesFiles.find(isUrl);
  if (!remote) return undefined;
  return { kind: 'refused', message: `values file ${remote} is a URL: Probe Lens renders offline; download it and pass the file` };
}

export function absoluteValuesFiles(files: readonly string[], cwd: string): string[] {
  return files.map((f) => (isUrl(f) ? f : resolve(cwd, f)));
}
