import * as vscode from 'vscode';
import { parseKubernetesVersion } from '../../core/check';
import type { CheckSettings } from '../../core/editor/incrementalChecker';
import { DEFAULT_MINOR_VERSION } from '../../core/manifest';
import { normaliseRuleIds } from '../../core/rules/registry';
import { DEFAULT_TIMELINE_CAPACITY } from '../../core/timeline/store';

/** Every `probeLens.*` setting, read once per use and typed; invalid values fall back to defaults. */
export interface ProbeLensSettings {
  readonly kubectlPath: string;
  /** Render charts and overlays to check them (trusted workspaces only). */
  readonly renderEnabled: boolean;
  readonly helmPath: string;
  /** A kustomize or kubectl executable; the kubectl of `kubectlPath` when unset. */
  readonly kustomizePath: string;
  /** Minor version of Kubernetes 1.x. */
  readonly minorVersion: number;
  readonly disabledRules: ReadonlySet<string>;
  readonly expectedStartupSeconds: number | undefined;
  readonly debounceMs: number;
  /** Where a local session sends probes for the pod IP. */
  readonly localHost: string;
  /** Container port → local port. */
  readonly portMap: ReadonlyMap<number, number>;
  /** Hosts other than the loopback that probes may reach. */
  readonly allowedHosts: ReadonlySet<string>;
  /** `ask`: exec probes run after the user agrees for that manifest; `never`: they don't run. */
  readonly execProbes: 'ask' | 'never';
  /** Events a session or an opened recording keeps for its timeline. */
  readonly timelineMaxEvents: number;
  /** The kubeconfig context for cluster sessions; `undefined`: ask (the current one first). */
  readonly clusterContext: string | undefined;
  /** For manifests without `metadata.namespace`; `undefined`: the context's. */
  readonly clusterNamespace: string | undefined;
  /** Probe every pod of a workload, not one. */
  readonly clusterAllPods: boolean;
  /** Whether `kubernetesVersion` was set by the user (a cluster session otherwise takes the cluster's). */
  readonly minorVersionSet: boolean;
}

/** Below this a timeline would drop a pod's history within minutes. */
export const MIN_TIMELINE_EVENTS = 1000;

export const SECTION = 'probeLens';

export function readSettings(scope?: vscode.ConfigurationScope): ProbeLensSettings {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const expected = config.get<number | null>('expectedStartupSeconds', null);
  return {
    kubectlPath: config.get<string>('kubectlPath', 'kubectl') || 'kubectl',
    renderEnabled: config.get<boolean>('render.enabled', true) !== false,
    helmPath: config.get<string>('helm.path', 'helm') || 'helm',
    kustomizePath: config.get<string>('kustomize.path', '') || config.get<string>('kubectlPath', 'kubectl') || 'kubectl',
    minorVersion: parseKubernetesVersion(config.get<string>('kubernetesVersion', '1.33')) ?? DEFAULT_MINOR_VERSION,
    disabledRules: new Set(normaliseRuleIds(config.get<string[]>('disabledRules', [])).known),
    expectedStartupSeconds: typeof expected === 'number' && expected >= 0 ? expected : undefined,
    debounceMs: clamp(config.get<number>('debounceMs', 200), 0, 5000),
    localHost: config.get<string>('local.host', '127.0.0.1') || '127.0.0.1',
    portMap: portMapOf(config.get<Record<string, unknown>>('local.portMap', {})),
    allowedHosts: new Set(config.get<string[]>('local.allowedHosts', [])),
    execProbes: config.get<string>('exec.probes', 'ask') === 'never' ? 'never' : 'ask',
    timelineMaxEvents: timelineCapacityOf(config.get<unknown>('timeline.maxEvents', DEFAULT_TIMELINE_CAPACITY)),
    clusterContext: config.get<string>('cluster.context', '') || undefined,
    clusterNamespace: config.get<string>('cluster.namespace', '') || undefined,
    clusterAllPods: config.get<boolean>('cluster.allPods', false) === true,
    minorVersionSet: isSet(config.inspect<string>('kubernetesVersion')),
  };
}

export function checkSettingsOf(settings: ProbeLensSettings, trusted: boolean): CheckSettings {
  const context = {
    minorVersion: settings.minorVersion,
    ...(settings.expectedStartupSeconds !== undefined ? { expectedStartupSeconds: settings.expectedStartupSeconds } : {}),
    renderingHint: renderingHintOf(settings, trusted),
  };
  return { disabledRules: settings.disabledRules, context };
}

/**
 * What a Helm template's Y03 says turns rendering on, in the editor. With rendering on and
 * trusted it is seen while the first render runs or when helm cannot (its notice says why).
 */
function renderingHintOf(settings: ProbeLensSettings, trusted: boolean): string {
  if (!trusted) return 'Probe Lens renders its chart with helm only in a trusted workspace: trust this folder to have it checked as rendered';
  if (!settings.renderEnabled) return 'turn on probeLens.render.enabled and Probe Lens renders its chart with helm and checks the output';
  return `Probe Lens renders its chart with helm (probeLens.helm.path: ${settings.helmPath}) and checks the output`;
}

/** Set by the user anywhere (user, workspace or folder settings), not only defaulted. */
function isSet(inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined): boolean {
  return inspected?.globalValue !== undefined || inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined;
}

/** `{"8080": 18080}`; entries that are not two valid ports are ignored. */
function portMapOf(raw: Record<string, unknown>): Map<number, number> {
  const map = new Map<number, number>();
  for (const [container, local] of Object.entries(raw ?? {})) {
    const c = Number(container);
    if (isPort(c) && typeof local === 'number' && isPort(local)) map.set(c, local);
  }
  return map;
}

function isPort(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= 65535;
}

/** A whole number of at least `MIN_TIMELINE_EVENTS`; anything that is not a number: the default. */
function timelineCapacityOf(raw: unknown): number {
  if (typeof raw !== 'number' || !Number.isFinite(raw)) return DEFAULT_TIMELINE_CAPACITY;
  return Math.max(MIN_TIMELINE_EVENTS, Math.floor(raw));
}

function clamp(n: number, min: number, max: number): number {
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : min;
}
