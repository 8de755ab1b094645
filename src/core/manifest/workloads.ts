import { isMap, isScalar, isSeq } from 'yaml';
import type { WorkloadKind } from './model';
import type { PodSpecSite } from './podSpec';
import type { ValueNode, YamlNavigator } from './yamlNavigator';

/**
 * Where each kind keeps its pod spec (validation-rules.md §A.2). An Argo Rollout keeps its pod
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
  const kind = scalarString(nav.get(root, 'kind', 0)?.value ?? null);
  if (kind === undefined) return [];
  if (kind.endsWith('List')) {
    const items = nav.get(root, 'items', 0)?.value ?? null;
    if (!isSeq(items)) return [];
    return nav.items(items, 1).flatMap((item) => podSpecOf(nav, item, 2));
  }
  return podSpecOf(nav, root, 0);
}

function podSpecOf(nav: YamlNavigator, object: ValueNode | null, depth: number): PodSpecSite[] {
  const kind = scalarString(nav.get(object, 'kind', depth)?.value ?? null);
  if (kind === undefined || !Object.hasOwn(POD_SPEC_PATHS, kind)) return [];
  const objectKind = kind as WorkloadKind;
  const group = CUSTOM_KIND_GROUPS[objectKind];
  if (group !== undefined && apiGroupOf(nav, object, depth) !== group) return [];
  const metadata = nav.get(object, 'metadata', depth)?.value ?? null;
  const objectName = scalarString(nav.get(metadata, 'name', depth + 1)?.value ?? null);
  let node: ValueNode | null = object;
  let level = depth;
  for (const key of POD_SPEC_PATHS[objectKind]) {
    node = nav.get(node, key, level)?.value ?? null;
    level++;
  }
  if (!isMap(node)) return [];
  const objectNamespace = scalarString(nav.get(metadata, 'namespace', depth + 1)?.value ?? null);
  const podSelector = objectKind === 'Pod' ? undefined : selectorOf(nav, object, objectKind, depth);
  const podLabels = podLabelsOf(nav, object, objectKind, objectName, depth);
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
 * The labels that find a workload's pods in a cluster: its `selector.matchLabels` (a
 * ReplicationController's `selector` is the plain map), else the labels of its pod template (a
 * Job's selector is usually generated; its template labels still select its pods).
 * `matchExpressions` are not read: equality on the labels found is what `kubectl get -l` is given.
 */
function selectorOf(nav: YamlNavigator, object: ValueNode | null, kind: WorkloadKind, depth: number): Readonly<Record<string, string>> | undefined {
  const templatePath = POD_SPEC_PATHS[kind].slice(0, -1);
  let owner: ValueNode | null = object;
  let level = depth;
  for (const key of templatePath.slice(0, -1)) {
    owner = nav.get(owner, key, level)?.value ?? null;
    level++;
  }
  const selector = templatePath.length > 1 ? (nav.get(owner, 'selector', level)?.value ?? null) : null;
  const matchLabels = kind === 'ReplicationController' ? stringMap(nav, selector, level + 1) : stringMap(nav, nav.get(selector, 'matchLabels', level + 1)?.value ?? null, level + 2);
  if (matchLabels) return matchLabels;
  const template = nav.get(owner, templatePath[templatePath.length - 1] as string, level)?.value ?? null;
  const metadata = nav.get(template, 'metadata', level + 1)?.value ?? null;
  return stringMap(nav, nav.get(metadata, 'labels', level + 2)?.value ?? null, level + 3);
}

/**
 * The labels the object's pods carry: a Pod's own, a template's, and for a Job those the Job
 * controller adds (`job-name`, `batch.kubernetes.io/job-name`), which a Service may select on.
 */
function podLabelsOf(nav: YamlNavigator, object: ValueNode | null, kind: WorkloadKind, name: string | undefined, depth: number): Readonly<Record<string, string>> | undefined {
  const templatePath = kind === 'Pod' ? [] : POD_SPEC_PATHS[kind].slice(0, -1);
  let owner: ValueNode | null = object;
  let level = depth;
  for (const key of templatePath) {
    owner = nav.get(owner, key, level)?.value ?? null;
    level++;
  }
  const metadata = nav.get(owner, 'metadata', level)?.value ?? null;
  const labels = stringMap(nav, nav.get(metadata, 'labels', level + 1)?.value ?? null, level + 2);
  const added = kind === 'Job' && name !== undefined ? { 'job-name': name, 'batch.kubernetes.io/job-name': name } : undefined;
  return added ? { ...labels, ...added } : labels;
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
