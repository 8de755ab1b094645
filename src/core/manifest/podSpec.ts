import { isSeq } from 'yaml';
import { compareRanges, type Range } from '../text/range';
import { decode, type SourceLocation } from './decode';
import { DEFAULT_POD_GRACE_SECONDS, DEFAULT_RESTART_POLICY, withProbeDefaults } from './defaults';
import {
  type ContainerKind,
  type ContainerModel,
  type ContainerSpec,
  PROBE_FIELDS,
  PROBE_TYPES,
  type PodSpecModel,
  type ProbeModel,
  type ProbeType,
  type WorkloadKind,
} from './model';
import { CONTAINER_SCHEMA, EPHEMERAL_CONTAINER_SCHEMA, POD_SPEC_SCHEMA } from './schema';
import type { ValueNode, YamlNavigator } from './yamlNavigator';

export const SIDECARS_SINCE = 29;

export interface PodSpecSite {
  readonly objectKind: WorkloadKind;
  readonly objectName?: string;
  readonly objectNamespace?: string;
  readonly podSelector?: Readonly<Record<string, string>>;
  readonly podLabels?: Readonly<Record<string, string>>;
  readonly path: string;
  readonly node: ValueNode;
  readonly depth: number;
}

/** Builds the containers and probes of one pod spec. */
export function readPodSpec(nav: YamlNavigator, site: PodSpecSite, minorVersion: number): PodSpecModel {
  const customResource = site.objectKind === 'Rollout';
  const decoded = decode(nav, site.node, POD_SPEC_SCHEMA, { path: site.path, parentStruct: 'PodTemplateSpec', minorVersion, customResource }, site.depth);
  const fields = decoded.value as { restartPolicy?: string; terminationGracePeriodSeconds?: number; hostNetwork?: boolean } | undefined;
  const containers: ContainerModel[] = [];
  const placeholders = [...decoded.placeholders];
  const pod: PodSpecModel = {
    objectKind: site.objectKind,
    ...(site.objectName !== undefined ? { objectName: site.objectName } : {}),
    ...(site.objectNamespace !== undefined ? { objectNamespace: site.objectNamespace } : {}),
    ...(site.podSelector !== undefined ? { podSelector: site.podSelector } : {}),
    ...(site.podLabels !== undefined ? { podLabels: site.podLabels } : {}),
    path: site.path,
    isTemplate: site.objectKind !== 'Pod',
    restartPolicy: fields?.restartPolicy || DEFAULT_RESTART_POLICY,
    terminationGracePeriodSeconds: fields?.terminationGracePeriodSeconds ?? DEFAULT_POD_GRACE_SECONDS,
    hostNetwork: fields?.hostNetwork === true,
    containers,
    ...nonEmptyList(nav, site, 'ephemeralContainers'),
    decodeIssues: decoded.issues,
    range: nav.rangeOf(site.node),
  };
  const lists: [string, (restartPolicy: string | undefined) => ContainerKind][] = [
    // Sidecars are on by default from 1.29 (docs/spec/validation-rules.md §A.7); before, the field is dropped.
    ['initContainers', (restartPolicy) => (restartPolicy === 'Always' && minorVersion >= SIDECARS_SINCE ? 'sidecar' : 'init')],
    ['containers', () => 'regular'],
    ['ephemeralContainers', () => 'ephemeral'],
  ];
  for (const [field, kindOf] of lists) {
    const entry = nav.get(site.node, field, site.depth);
    if (!entry || !isSeq(entry.value)) continue;
    nav.items(entry.value, site.depth + 1).forEach((node, index) => {
      if (node === null) return;
      containers.push(readContainer(nav, pod, node, `${site.path}.${field}[${index}]`, index, field, kindOf, { minorVersion, customResource }, site.depth + 2, placeholders));
    });
  }
  const [placeholder] = placeholders.sort((a, b) => compareRanges(a.range, b.range));
  return placeholder ? { ...pod, placeholder } : pod;
}

function readContainer(
  nav: YamlNavigator,
  pod: PodSpecModel,
  node: ValueNode,
  path: string,
  index: number,
  field: string,
  kindOf: (restartPolicy: string | undefined) => ContainerKind,
  api: { readonly minorVersion: number; readonly customResource: boolean },
  depth: number,
  placeholders: { text: string; range: Range }[],
): ContainerModel {
  const schema = field === 'ephemeralContainers' ? EPHEMERAL_CONTAINER_SCHEMA : CONTAINER_SCHEMA;
  const decoded = decode(nav, node, schema, { path, parentStruct: 'PodSpec', ...api }, depth);
  placeholders.push(...decoded.placeholders);
  const spec = (decoded.value ?? {}) as ContainerSpec;
  const kind = kindOf(spec.restartPolicy);
  const probes: ProbeModel[] = [];
  const locate = (relative: string) => decoded.locations.get(relative);
  const container: ContainerModel = {
    kind,
    index,
    path,
    name: spec.name ?? '',
    range: nav.rangeOf(node),
    spec,
    decodeIssues: decoded.issues,
    probes,
    pod,
    probe: (type: ProbeType) => probes.find((p) => p.type === type),
    locate,
  };
  for (const type of PROBE_TYPES) {
    const probe = readProbe(container, type, locate);
    if (probe) probes.push(probe);
  }
  return container;
}

function readProbe(container: ContainerModel, type: ProbeType, locate: (relative: string) => SourceLocation | undefined): ProbeModel | undefined {
  const field = PROBE_FIELDS[type];
  const spec = container.spec[field];
  const where = locate(field);
  if (spec === undefined || where === undefined || where.key === undefined) return undefined;
  const keyRange: Range = where.key;
  const path = `${container.path}.${field}`;
  return {
    type,
    container,
    path,
    spec,
    effective: withProbeDefaults(spec),
    keyRange,
    decodeIssues: container.decodeIssues.filter((issue) => issue.path.startsWith(`${path}.`)),
    locate: (relative: string) => locate(relative === '' ? field : `${field}.${relative}`),
  };
}

function nonEmptyList(nav: YamlNavigator, site: PodSpecSite, field: string): { ephemeralContainers?: SourceLocation } {
  const entry = nav.get(site.node, field, site.depth);
  if (!entry || !isSeq(entry.value) || entry.value.items.length === 0) return {};
  return { ephemeralContainers: { key: entry.keyRange, value: nav.rangeOf(entry.value), isNull: false, quoted: false } };
}
