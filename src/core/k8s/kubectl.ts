import type { ChildProcess } from 'node:child_process';
import { runBounded, spawnInGroup } from '../probers/boundedProcess';
import type { PodSpecModel } from '../manifest';
import { sentenceEnd } from '../text/sentence';
import { classifyKubectlError, type KubectlError, kubectlTimedOut } from './kubectlErrors';

/** Which kubectl, and the environment it runs with (KUBECONFIG, PATH …). */
export interface KubectlConfig {
  /** The executable: `kubectl` (looked up on PATH), or a path (`--kubectl`, `probeLens.kubectlPath`). */
  readonly path: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * How the user names kubectl, for the sentence when it cannot be found (`the probeLens.kubectlPath
   * setting`); without it, both the CLI flag and the setting are named.
   */
  readonly namedBy?: string;
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
  | { readonly kind: 'notStarted'; readonly error: string; readonly failure: KubectlError };

/**
 * Runs kubectl once with `args` (argv, no shell), bounded by `timeoutMs` and the output cap.
 * kubectl leads its own process group, which is killed when the run ends for any reason, so
 * nothing it started (an exec's streams, a credential plugin) outlives it.
 */
export async function runKubectl(kubectl: KubectlConfig, args: readonly string[], options: KubectlRunOptions): Promise<KubectlResult> {
  const result = await runBounded(kubectl.path, args, { ...options, ...(kubectl.env ? { env: kubectl.env } : {}) });
  switch (result.kind) {
    case 'notStarted':
      return { kind: 'notStarted', error: notStartedText(kubectl, result.error), failure: kubectlNotStarted(kubectl, result.error) };
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
function notStartedText(kubectl: KubectlConfig, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (kubectl.namedBy) return namedNotStartedText(kubectl.path, kubectl.namedBy, code, error);
  if (code === 'ENOENT') return `kubectl not found: "${kubectl.path}" (install kubectl, or name it with --kubectl PATH / the probeLens.kubectlPath setting)`;
  if (code === 'EACCES') return `kubectl "${kubectl.path}" cannot be run: permission denied`;
  return `kubectl "${kubectl.path}" cannot be run: ${error instanceof Error ? error.message : String(error)}`;
}

/** The same, as one sentence naming the one way this user names kubectl (`namedBy`). */
function namedNotStartedText(path: string, namedBy: string, code: string | undefined, error: unknown): string {
  // A bare name is looked up on PATH; a path is where the user said it is.
  const where = path.includes('/') || path.includes('\\') ? `at ${path}` : `on PATH (as "${path}")`;
  if (code === 'ENOENT') return `kubectl was not found ${where}: install kubectl, or set ${namedBy} to its full path.`;
  if (code === 'EACCES') return `kubectl ${where} cannot be run (permission denied): make it executable, or set ${namedBy} to another kubectl.`;
  return `kubectl ${where} cannot be run (${error instanceof Error ? error.message : String(error)}): set ${namedBy} to a kubectl that runs.`;
}

/** kubectl could not be started, as a classified error (kind `kubectl-missing`). */
export function kubectlNotStarted(kubectl: KubectlConfig, error: unknown): KubectlError {
  return { kind: 'kubectl-missing', sentence: sentenceEnd(notStartedText(kubectl, error)), detail: error instanceof Error ? error.message : String(error) };
}

/** A kubectl run that failed: the classified error, the command (for the log) and what it wrote to stderr. */
export interface KubectlFailure {
  readonly error: KubectlError;
  /** `kubectl get pods -l app=web -o json`. */
  readonly command: string;
  /** The end of its stderr (at most `MAX_LOGGED_STDERR` characters): the log shows it whole. */
  readonly stderr: string;
}

/** What of kubectl's stderr goes to the log: its end, where the reason is. */
export const MAX_LOGGED_STDERR = 16 * 1024;

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

/**
 * `kubectl`: kubectl itself failed (not found, no context, cluster unreachable, forbidden …), so
 * no other lookup will do better; without it, this pod alone is missing.
 */
export type PodLookup = { readonly ok: true; readonly pod: ClusterPod } | { readonly ok: false; readonly error: string; readonly kubectl?: KubectlFailure };

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
  const where = whereText(namespace);
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
  const command = `kubectl ${query.args.join(' ')}`;
  switch (result.kind) {
    case 'notStarted':
      return { ok: false, error: result.failure.sentence, kubectl: { error: result.failure, command, stderr: '' } };
    case 'timedOut': {
      const error = kubectlTimedOut(query.args.join(' '), Math.round(timeoutMs / 1000));
      return { ok: false, error: error.sentence, kubectl: { error, command, stderr: '' } };
    }
    case 'aborted':
      return { ok: false, error: 'stopped' };
    case 'exited': {
      if (result.exitCode !== 0) return lookupFailure(spec, namespace, command, result);
      let json: unknown;
      try {
        json = JSON.parse(result.stdout.toString('utf8'));
      } catch {
        return { ok: false, error: `${command} did not print JSON` };
      }
      return choosePod(json, spec, namespace);
    }
  }
}

/**
 * One decision: what kubectl's complaint means for this lookup. The Pod asked for by name not
 * being there is this pod missing, said as for a workload with no pod; anything else is kubectl
 * failing, classified.
 */
function lookupFailure(spec: PodSpecModel, namespace: string | undefined, command: string, result: Extract<KubectlResult, { kind: 'exited' }>): PodLookup {
  const text = result.stderr.toString('utf8');
  const stderr = text.length > MAX_LOGGED_STDERR ? text.slice(-MAX_LOGGED_STDERR) : text;
  const error = classifyKubectlError(text.trim() ? text : `exit code ${result.exitCode}`);
  if (error.kind === 'not-found' && spec.objectKind === 'Pod') return { ok: false, error: `no ${describeObject(spec)} in ${whereText(namespace)}` };
  return { ok: false, error: error.sentence, kubectl: { error, command, stderr } };
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

function whereText(namespace: string | undefined): string {
  return namespace ? `namespace "${namespace}"` : "kubectl's current namespace";
}

function describeObject(spec: PodSpecModel): string {
  return spec.objectName ? `${spec.objectKind} "${spec.objectName}"` : `the ${spec.objectKind} without a name`;
}


