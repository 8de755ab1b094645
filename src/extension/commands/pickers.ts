import * as vscode from 'vscode';
import type { DesiredPod } from '../../core/engine/manager';
import { parseManifest, PROBING_CONTAINERS, type ProbeType } from '../../core/manifest';
import type { KubeContexts } from '../../core/kubeclient/kubeContexts';
import { baseName } from '../documents/fileNames';
import type { ProbingSession } from '../sessions/probingSession';

/** `undefined`: the user dismissed the picker. */
export type Picked<T> = { readonly value: T } | undefined;

/** Which pods to run when a manifest has several: all (`undefined`), or one. */
export async function pickPods(pods: readonly DesiredPod[], action: string): Promise<Picked<readonly string[] | undefined>> {
  if (pods.length <= 1) return { value: undefined };
  const all = { label: `$(layers) All ${pods.length} workloads`, pods: undefined as readonly string[] | undefined };
  const items = [
    all,
    ...pods.map((pod) => ({
      label: pod.identity.name,
      description: pod.spec.objectKind,
      detail: pod.spec.containers.filter((c) => PROBING_CONTAINERS.includes(c.kind)).map((c) => `${c.name}: ${c.probes.map((p) => p.type).join(', ') || 'no probes'}`).join(' · '),
      pods: [pod.identity.name] as readonly string[] | undefined,
    })),
  ];
  const chosen = await vscode.window.showQuickPick(items, { title: action, placeHolder: 'Which workload?' });
  return chosen && { value: chosen.pods };
}

export async function pickSession(sessions: readonly ProbingSession[], title: string): Promise<ProbingSession | undefined> {
  if (sessions.length <= 1) return sessions[0];
  const chosen = await vscode.window.showQuickPick(
    sessions.map((session) => ({ label: session.label, description: `${session.kind} · ${session.options.detail}`, session })),
    { title, placeHolder: 'Which session?' },
  );
  return chosen?.session;
}

export interface ProbeChoice {
  readonly pod: string;
  readonly container: string;
  readonly probe: ProbeType;
}

export async function pickProbe(pods: readonly DesiredPod[]): Promise<ProbeChoice | undefined> {
  const items = pods.flatMap((pod) =>
    pod.spec.containers
      .filter((c) => PROBING_CONTAINERS.includes(c.kind))
      .flatMap((c) => c.probes.map((p) => ({ label: `${pod.identity.name}/${c.name} ${p.type}`, choice: { pod: pod.identity.name, container: c.name, probe: p.type } }))),
  );
  if (items.length <= 1) return items[0]?.choice;
  return (await vscode.window.showQuickPick(items, { title: 'Run Probe Once', placeHolder: 'Which probe?' }))?.choice;
}

/** An existing scenario beside the manifest, or `create` for a new one from the template. */
export async function pickScenario(manifest: vscode.Uri, existing: readonly vscode.Uri[], newName: string): Promise<Picked<vscode.Uri | 'create'>> {
  const items: { label: string; description?: string; value: vscode.Uri | 'create' }[] = [
    ...existing.map((uri) => ({ label: `$(file) ${baseName(uri)}`, description: 'beside the manifest', value: uri as vscode.Uri | 'create' })),
    { label: `$(new-file) Create ${newName}`, description: 'from a template, then edit it', value: 'create' },
  ];
  const chosen = await vscode.window.showQuickPick(items, { title: `Simulate ${baseName(manifest)}`, placeHolder: 'Scenario: how the app behaves' });
  return chosen && { value: chosen.value };
}

const SPEEDS = [1, 10, 60, 600] as const;

export async function pickSpeed(): Promise<number | undefined> {
  const items = SPEEDS.map((speed) => ({ label: `${speed}×`, description: speed === 1 ? 'real time' : `a minute in ${60 / speed < 1 ? `${Math.round(6000 / speed) / 100} s` : `${60 / speed} s`}`, speed }));
  return (await vscode.window.showQuickPick(items, { title: 'Simulation speed', placeHolder: 'Virtual seconds per real second' }))?.speed;
}

/** A probing container of a session's pods (the only one, without asking). */
export async function pickContainer(session: ProbingSession, title: string): Promise<{ pod: string; container: string } | undefined> {
  const items = session.pods.flatMap((pod) =>
    pod.spec.containers
      .filter((c) => PROBING_CONTAINERS.includes(c.kind))
      .map((c) => ({ label: `${pod.identity.name}/${c.name}`, description: session.state.pods.get(pod.identity.name)?.containers.get(c.name)?.state ?? '', choice: { pod: pod.identity.name, container: c.name } })),
  );
  if (items.length <= 1) return items[0]?.choice;
  return (await vscode.window.showQuickPick(items, { title, placeHolder: 'Which container?' }))?.choice;
}

/** Files looked at for manifests, and the largest read: a command must answer in a moment. */
const MAX_MANIFEST_FILES = 500;
/** Found before node_modules is left out (the user's files.exclude applies, which rarely names it). */
const MAX_FOUND_FILES = 2000;
const MAX_MANIFEST_BYTES = 1024 * 1024;
/** Cheap first test: a pod spec has `containers:` (block or flow style). */
const MENTIONS_CONTAINERS = /\bcontainers\s*:/;

/** A YAML file of the workspace that holds pod specs, and what they are (`Deployment web, Pod api`). */
interface WorkspaceManifest {
  readonly uri: vscode.Uri;
  readonly pods: readonly string[];
}

/**
 * The workspace's YAML files that hold a pod spec (read as the extension reads manifests, so a
 * scenario file's `containers:` does not count), sorted by path; node_modules and what
 * `files.exclude` hides are skipped.
 */
async function workspaceManifests(): Promise<WorkspaceManifest[]> {
  const yaml = await vscode.workspace.findFiles('**/*.{yaml,yml}', undefined, MAX_FOUND_FILES);
  const files = yaml.filter((uri) => !uri.path.includes('/node_modules/')).slice(0, MAX_MANIFEST_FILES);
  const found = await Promise.all(files.map(manifestAt));
  return found.filter((m): m is WorkspaceManifest => m !== undefined).sort((a, b) => (a.uri.path < b.uri.path ? -1 : a.uri.path > b.uri.path ? 1 : 0));
}

async function manifestAt(uri: vscode.Uri): Promise<WorkspaceManifest | undefined> {
  try {
    if ((await vscode.workspace.fs.stat(uri)).size > MAX_MANIFEST_BYTES) return undefined;
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    if (!MENTIONS_CONTAINERS.test(text)) return undefined;
    const pods = parseManifest(text).documents.flatMap((d) => d.podSpecs.map((spec) => (spec.objectName ? `${spec.objectKind} ${spec.objectName}` : spec.objectKind)));
    return pods.length > 0 ? { uri, pods } : undefined;
  } catch {
    // Unreadable (deleted meanwhile, no permission): not a choice.
    return undefined;
  }
}

/**
 * A manifest of the workspace, for a command started with no manifest open: `'none'` when the
 * workspace has none, `undefined` when the user dismissed the picker.
 */
export async function pickManifest(action: string): Promise<Picked<vscode.Uri> | 'none'> {
  const manifests = await workspaceManifests();
  if (manifests.length === 0) return 'none';
  const items = manifests.map((m) => ({
    label: `$(file) ${baseName(m.uri)}`,
    description: folderOf(vscode.workspace.asRelativePath(m.uri)),
    detail: m.pods.length > 3 ? `${m.pods.slice(0, 3).join(', ')} and ${m.pods.length - 3} more` : m.pods.join(', '),
    uri: m.uri,
  }));
  const chosen = await vscode.window.showQuickPick(items, { title: action, placeHolder: 'No manifest is open: which one?', matchOnDescription: true, matchOnDetail: true });
  return chosen && { value: chosen.uri };
}

/** `cluster` for `cluster/web.yaml`; '' for a file at the root. */
function folderOf(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  return slash < 0 ? '' : relativePath.slice(0, slash);
}

/**
 * Which kubeconfig context to probe in: the current one first (Enter keeps it), then the others
 * as the kubeconfig lists them, each with its cluster, namespace and user. With one context
 * there is nothing to ask: `{ value: undefined }`, the current one.
 */
export async function pickClusterContext(kubeconfig: KubeContexts, namespace: string | undefined, action: string): Promise<Picked<string | undefined>> {
  if (kubeconfig.contexts.length <= 1) return { value: undefined };
  const ordered = [...kubeconfig.contexts].sort((a, b) => Number(b.name === kubeconfig.current) - Number(a.name === kubeconfig.current));
  const items = ordered.map((context) => ({
    label: `$(cloud) ${context.name}`,
    description: context.name === kubeconfig.current ? 'current context' : '',
    detail: [context.cluster && `cluster ${context.cluster}`, `namespace ${namespace ?? context.namespace ?? 'default'}`, context.user && `user ${context.user}`].filter(Boolean).join(' · '),
    context: context.name,
  }));
  const chosen = await vscode.window.showQuickPick(items, { title: action, placeHolder: 'Which kubeconfig context? (set probeLens.cluster.context to skip this)', matchOnDetail: true });
  return chosen && { value: chosen.context };
}