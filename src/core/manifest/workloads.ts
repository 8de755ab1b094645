import { isMap, isScalar, isSeq } from 'yaml';
import type { WorkloadKind } from './model';
import type { PodSpecSite } from './podSpec';
import type { ValueNode, YamlNavigator } from './yamlNavigator';

/** Where each kind keeps its pod spec (validation-rules.md §A.2). */
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
};

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
  const metadata = nav.get(object, 'metadata', depth)?.value ?? null;
  const objectName = scalarString(nav.get(metadata, 'name', depth + 1)?.value ?? null);
  let node: ValueNode | null = object;
  let level = depth;
  for (const key of POD_SPEC_PATHS[objectKind]) {
    node = nav.get(node, key, level)?.value ?? null;
    level++;
  }
  if (!isMap(node)) return [];
  return [{ objectKind, ...(objectName !== undefined ? { objectName } : {}), path: POD_SPEC_PATHS[objectKind].join('.'), node, depth: level }];
}

function scalarString(node: ValueNode | null): string | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}
