import type { ChildProcess } from 'node:child_process';
import { runBounded, spawnInGroup } from '../probers/boundedProcess';
import type { PodSpecModel } from '../manifest';

/** Which kubectl, and the environment it runs with (KUBECONFIG, PATH …). */
export interface KubectlConfig {
  /** The executable: `kubectl` (looked up on PATH), or a path (`--kubectl`, `probeLens.kubectlPath`). */
  readonly path: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface KubectlRunOptions {
  readonly timeoutMs: number;
  /** Per stream: what is beyond it is drained and dropped (the child never blocks on a full pipe). */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
}

/** How one kubectl run ended; every way it can end is a value. */
export type KubectlResult =
  | {
      readonly kind: 'exited';
      readonly exitCode: number;
      readonly stdout: Buffer;
      readonly stderr: Buffer;
      /** The last bytes of stderr, past the cap: where kubectl writes its own last word. */
      readonly stderrTail: string;
    }
  | { readonly kind: 'timedOut' }
  | { readonly kind: 'aborted' }
  /** It never ran: not found, not executable. */
  | { readonly kind: 'notStarted'; readonly error: string };

/**
 * Runs kubectl once with `args` (argv, no shell), bounded by `timeoutMs` and the output cap.
 * kubectl leads its own process group, which is killed when the run ends for any reason, so
 * nothing it started (an exec's streams, a credential plugin) outlives it.
 */
export async function runKubectl(kubectl: KubectlConfig, args: readonly string[], options: KubectlRunOptions): Promise<KubectlResult> {
  const result = await runBounded(kubectl.path, args, { ...options, ...(kubectl.env ? { env: kubectl.env } : {}) });
  switch (result.kind) {
    case 'notStarted':
      return { kind: 'notStarted', error: notStartedText(kubectl, result.error) };
    case 'exited':
      // A signal death (exit code null) is an exit too: kubectl's own exit codes start at 1.
      return { ...result, exitCode: result.exitCode ?? 128 };
    default:
      return result;
  }
}

/** Starts a long-running kubectl (port-forward) in its own process group; the caller kills the group. */
export function spawnKubectl(kubectl: KubectlConfig, args: readonly string[]): ChildProcess {
  return spawnInGroup(kubectl.path, args, kubectl.env ? { env: kubectl.env } : {});
}

/** `kubectl` not on PATH is the first thing a user meets: say which setting names it. */
export function notStartedText(kubectl: KubectlConfig, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return `kubectl not found: "${kubectl.path}" (install kubectl, or name it with --kubectl PATH / the probeLens.kubectlPath setting)`;
  if (code === 'EACCES') return `kubectl "${kubectl.path}" cannot be run: permission denied`;
  return `kubectl "${kubectl.path}" cannot be run: ${error instanceof Error ? error.message : String(error)}`;
}

/** `-n NS`, or nothing (kubectl's current context then decides). */
export function namespaceArgs(namespace: string | undefined): string[] {
  return namespace ? ['-n', namespace] : [];
}

/**
 * The namespace to look in: the manifest's own `metadata.namespace`, else the one the user gave
 * (`--namespace`, a setting), else none — kubectl's kubeconfig context decides.
 */
function namespaceFor(spec: PodSpecModel, given: string | undefined): string | undefined {
  return spec.objectNamespace || given || undefined;
}

/** A pod in the cluster that stands for a manifest's pod spec. */
export interface ClusterPod {
  readonly name: string;
  /** As the API server reports it (the kubeconfig default when none was given). */
  readonly namespace: string;
  readonly uid: string;
  readonly podIP: string | undefined;
  readonly phase: string;
  readonly ready: boolean;
  readonly containers: readonly string[];
}

/** `kubectlMissing`: kubectl itself could not be run, so no other lookup will do better. */
export type PodLookup = { readonly ok: true; readonly pod: ClusterPod } | { readonly ok: false; readonly error: string; readonly kubectlMissing?: true };

/** `kubectl get` for the pods of a manifest's pod spec: a Pod by name, a workload by its labels. */
export function podQueryArgs(spec: PodSpecModel, namespace: string | undefined): { readonly ok: true; readonly args: string[] } | { readonly ok: false; readonly error: string } {
  const what = describeObject(spec);
  if (spec.objectKind === 'Pod') {
    if (!spec.objectName) return { ok: false, error: `${what} has no metadata.name to find it by in the cluster` };
    return { ok: true, args: ['get', 'pod', spec.objectName, ...namespaceArgs(namespace), '-o', 'json'] };
  }
  if (spec.objectKind === 'PodTemplate') return { ok: false, error: `${what} is a template only: no pod in the cluster runs it` };
  // The Job controller labels its pods `job-name=<job>` whatever the template says.
  const labels = spec.podSelector ?? (spec.objectKind === 'Job' && spec.objectName ? { 'job-name': spec.objectName } : undefined);
  if (!labels) return { ok: false, error: `${what} has no selector.matchLabels or template labels to find its pods by` };
  return { ok: true, args: ['get', 'pods', ...namespaceArgs(namespace), '-l', selectorText(labels), '-o', 'json'] };
}

/** A label selector as kubectl takes it and people read it: `app=web,tier=front`. */
function selectorText(labels: Readonly<Record<string, string>>): string {
  return Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/**
 * The pod to probe among what `kubectl get … -o json` printed (a Pod or a List): one that is
 * Running and not being deleted, Ready ones first, then by name so the choice is repeatable.
 */
export function choosePod(json: unknown, spec: PodSpecModel, namespace: string | undefined): PodLookup {
  const object = json as { kind?: string; items?: unknown[] } | null;
  const pods = (object?.kind === 'List' || Array.isArray(object?.items) ? (object?.items ?? []) : [object]).map(readPod).filter((p): p is ClusterPod & { deleting: boolean } => p !== undefined);
  const where = namespace ? `namespace "${namespace}"` : "kubectl's current namespace";
  const what = describeObject(spec);
  if (pods.length === 0) {
    const selector = spec.podSelector ? ` with labels ${selectorText(spec.podSelector)}` : '';
    return { ok: false, error: `no pod of ${what}${selector} in ${where}` };
  }
  const running = pods.filter((p) => p.phase === 'Running' && !p.deleting);
  if (running.length === 0) {
    const states = pods.map((p) => `${p.name} is ${p.deleting ? 'terminating' : p.phase}`).join(', ');
    return { ok: false, error: `no Running pod of ${what} in ${where} (${states})` };
  }
  running.sort((a, b) => Number(b.ready) - Number(a.ready) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const { deleting: _deleting, ...pod } = running[0] as ClusterPod & { deleting: boolean };
  return { ok: true, pod };
}

/** Runs the query and chooses; kubectl's own complaint (NotFound, Forbidden, no context) is passed on. */
export async function findClusterPod(kubectl: KubectlConfig, spec: PodSpecModel, givenNamespace: string | undefined, timeoutMs = 30_000): Promise<PodLookup> {
  const namespace = namespaceFor(spec, givenNamespace);
  const query = podQueryArgs(spec, namespace);
  if (!query.ok) return query;
  const result = await runKubectl(kubectl, query.args, { timeoutMs, maxOutputBytes: 32 * 1024 * 1024 });
  switch (result.kind) {
    case 'notStarted':
      return { ok: false, error: result.error, kubectlMissing: true };
    case 'timedOut':
      return { ok: false, error: `kubectl ${query.args.join(' ')} did not answer within ${Math.round(timeoutMs / 1000)} s` };
    case 'aborted':
      return { ok: false, error: 'stopped' };
    case 'exited': {
      if (result.exitCode !== 0) return { ok: false, error: `kubectl ${query.args.join(' ')}: ${firstLines(result.stderr.toString('utf8')) || `exit code ${result.exitCode}`}` };
      let json: unknown;
      try {
        json = JSON.parse(result.stdout.toString('utf8'));
      } catch {
        return { ok: false, error: `kubectl ${query.args.join(' ')} did not print JSON` };
      }
      return choosePod(json, spec, namespace);
    }
  }
}

function readPod(item: unknown): (ClusterPod & { deleting: boolean }) | undefined {
  const pod = item as {
    kind?: string;
    metadata?: { name?: string; namespace?: string; uid?: string; deletionTimestamp?: string };
    spec?: { containers?: { name?: string }[] };
    status?: { phase?: string; podIP?: string; conditions?: { type?: string; status?: string }[] };
  } | null;
  const name = pod?.metadata?.name;
  if (typeof name !== 'string' || (pod?.kind !== undefined && pod.kind !== 'Pod')) return undefined;
  return {
    name,
    namespace: pod?.metadata?.namespace ?? '',
    uid: pod?.metadata?.uid ?? name,
    podIP: pod?.status?.podIP || undefined,
    phase: pod?.status?.phase ?? 'Unknown',
    ready: pod?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
    containers: (pod?.spec?.containers ?? []).flatMap((c) => (typeof c.name === 'string' ? [c.name] : [])),
    deleting: pod?.metadata?.deletionTimestamp !== undefined,
  };
}

function describeObject(spec: PodSpecModel): string {
  return spec.objectName ? `${spec.objectKind} "${spec.objectName}"` : `the ${spec.objectKind} without a name`;
}

/** kubectl's error text, trimmed to what fits a message. */
export function firstLines(text: string, max = 3): string {
  return text.trim().split('\n').slice(0, max).join(' ').slice(0, 500);
}


