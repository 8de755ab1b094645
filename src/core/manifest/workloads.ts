import { isMap, isScalar, isSeq } from 'yaml';
import type { WorkloadKind } from './model';
import type { PodSpecSite } from './podSpec';
import type { ValueNode, YamlNavigator } from './yamlNavigator';

/**
 * Where each kind keeps its pod spec (docs/spec/validation-rules.md §A.2). An Argo Rollout keeps its pod
 * template where a Deployment does, and every ReplicaSet it creates carries that template.
 */
export const POD_SPEC_PATHS: Readonly<Record<WorkloadKind, readonly string[]>> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
  PodTemplate: ['template', 'spec'],
  Rollout: ['spec', 'template', 'spec'],
};

/** Kinds of other API groups, recognised by their group (a `Rollout` of another group is not Argo's). */
const CUSTOM_KIND_GROUPS: Readonly<Partial<Record<WorkloadKind, string>>> = { Rollout: 'argoproj.io' };

/**
 * The pod specs of one document's root object; a `List` (or `…List`) contributes those of its
 * items, each with paths relative to the item, as kubectl sends items one by one.
 */
export function findPodSpecs(nav: YamlNavigator, root: ValueNode | null): PodSpecSite[] {
  return objectsOf(nav, root).flatMap(({ node, depth }) => podSpecOf(nav, node, depth));
}

/** The document's object, or each item of a `List` (kubectl sends them one by one). */
export function objectsOf(nav: YamlNavigator, root: ValueNode | null): { node: ValueNode | null; depth: number }[] {
  const kind = scalarString(nav.get(root, 'kind', 0)?.value ?? null);
  if (!kind?.endsWith('List')) return [{ node: root, depth: 0 }];
  const items = nav.get(root, 'items', 0)?.value ?? null;
  return isSeq(items) ? nav.items(items, 1).map((node) => ({ node, depth: 2 })) : [];
}

function podSpecOf(nav: YamlNavigator, object: ValueNode | null, depth: number): PodSpecSite[] {
  const kind = scalarString(nav.get(object, 'kind', depth)?.value ?? null);
  if (kind === undefined || !Object.hasOwn(POD_SPEC_PATHS, kind)) return [];
  const objectKind = kind as WorkloadKind;
  const group = CUSTOM_KIND_GROUPS[objectKind];
  if (group !== undefined && apiGroupOf(nav, object, depth) !== group) return [];
  const metadata = nav.get(object, 'metadata', depth)?.value ?? null;
  const objectName = scalarString(nav.get(metadata, 'name', depth + 1)?.value ?? null);
  const { node, level } = walk(nav, object, POD_SPEC_PATHS[objectKind], depth);
  if (!isMap(node)) return [];
  const objectNamespace = scalarString(nav.get(metadata, 'namespace', depth + 1)?.value ?? null);
  const labels = templateLabels(nav, object, objectKind, depth);
  const podSelector = objectKind === 'Pod' ? undefined : (matchLabelsOf(nav, object, objectKind, depth) ?? labels);
  // The Job controller adds these to the pods it creates; a Service may select on them.
  const podLabels = objectKind === 'Job' && objectName !== undefined ? { ...labels, 'job-name': objectName, 'batch.kubernetes.io/job-name': objectName } : labels;
  return [
    {
      objectKind,
      ...(objectName !== undefined ? { objectName } : {}),
      ...(objectNamespace ? { objectNamespace } : {}),
      ...(podSelector ? { podSelector } : {}),
      ...(podLabels ? { podLabels } : {}),
      path: POD_SPEC_PATHS[objectKind].join('.'),
      node,
      depth: level,
    },
  ];
}

/**
 * A workload's own selector: its `selector.matchLabels` (a ReplicationController's `selector` is
 * the plain map). With the template's labels as fallback (a Job's selector is usually generated),
 * the labels that find its pods in a cluster. `matchExpressions` are not read: equality on the
 * labels found is what `kubectl get -l` is given.
 */
function matchLabelsOf(nav: YamlNavigator, object: ValueNode | null, kind: WorkloadKind, depth: number): Readonly<Record<string, string>> | undefined {
  const ownerPath = POD_SPEC_PATHS[kind].slice(0, -2);
  if (ownerPath.length === 0) return undefined;
  const { node: owner, level } = walk(nav, object, ownerPath, depth);
  const selector = nav.get(owner, 'selector', level)?.value ?? null;
  return kind === 'ReplicationController' ? stringMap(nav, selector, level + 1) : stringMap(nav, nav.get(selector, 'matchLabels', level + 1)?.value ?? null, level + 2);
}

/** The labels of the pod template (a Pod's own): those its pods carry. */
function templateLabels(nav: YamlNavigator, object: ValueNode | null, kind: WorkloadKind, depth: number): Readonly<Record<string, string>> | undefined {
  const { node: template, level } = walk(nav, object, POD_SPEC_PATHS[kind].slice(0, -1), depth);
  const metadata = nav.get(template, 'metadata', level)?.value ?? null;
  return stringMap(nav, nav.get(metadata, 'labels', level + 1)?.value ?? null, level + 2);
}

function walk(nav: YamlNavigator, from: ValueNode | null, path: readonly string[], depth: number): { node: ValueNode | null; level: number } {
  let node = from;
  let level = depth;
  for (const key of path) {
    node = nav.get(node, key, level)?.value ?? null;
    level++;
  }
  return { node, level };
}

/** `apps` of `apps/v1`, `` for the core group (`v1`). */
export function apiGroupOf(nav: YamlNavigator, object: ValueNode | null, depth: number): string {
  const apiVersion = scalarString(nav.get(object, 'apiVersion', depth)?.value ?? null) ?? '';
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** A map of string values (labels), or undefined when there is none or it is empty. */
export function stringMap(nav: YamlNavigator, node: ValueNode | null, depth: number): Record<string, string> | undefined {
  if (!isMap(node)) return undefined;
  const entries = nav.entries(node, depth).flatMap((entry) => {
    const value = scalarString(entry.value);
    return value === undefined ? [] : [[entry.key, value] as const];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

export function scalarString(node: ValueNode | null): string | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}
