import { probeExtent } from '../../core/editor/probeText';
import type { ManifestSnapshot, PlacedPodSpec } from '../../core/editor/incrementalChecker';
import { desiredPodsOf } from '../../core/engine/manager';
import { type ContainerModel, PROBING_CONTAINERS, type ProbeType } from '../../core/manifest';
import { chunkPosition, placeRange } from '../../core/editor/lineMap';
import { comparePositions, containsPosition, type Position, type Range } from '../../core/text/range';
import { containerLaneKey, podLaneKey, probeLaneKey } from '../../core/timeline/laneKeys';

/** A pod of a manifest by the name sessions run it under, with where it sits. */
interface NamedPod {
  readonly name: string;
  readonly placed: PlacedPodSpec;
}

/** Pod names as a session gives them (`desiredPodsOf`), each with its placement in the file. */
function namedPods(snapshot: ManifestSnapshot): NamedPod[] {
  const placedBySpec = new Map(snapshot.podSpecs.map((placed) => [placed.spec, placed]));
  return desiredPodsOf(snapshot.documents).flatMap((pod) => {
    const placed = placedBySpec.get(pod.spec);
    return placed ? [{ name: pod.identity.name, placed }] : [];
  });
}

function probingContainer(placed: PlacedPodSpec, name: string): ContainerModel | undefined {
  return placed.spec.containers.find((c) => c.name === name && PROBING_CONTAINERS.includes(c.kind));
}

/**
 * Where a timeline lane's probe (its key: `livenessProbe`) or container (its name) is written, in
 * file positions; `undefined` if the manifest no longer has it.
 */
export function locateInManifest(snapshot: ManifestSnapshot, pod: string, container: string, probe?: ProbeType): Range | undefined {
  const placed = namedPods(snapshot).find((p) => p.name === pod)?.placed;
  const model = placed && probingContainer(placed, container);
  if (!placed || !model) return undefined;
  const probeModel = probe !== undefined ? model.probe(probe) : undefined;
  const range = probeModel?.keyRange ?? model.locate('name')?.value ?? { start: model.range.start, end: model.range.start };
  return placeRange(placed, range);
}

/**
 * The timeline lanes of what is under `position` in the manifest, and of everything inside it: a
 * probe's lane; a container's and its probes'; a pod's, its containers' and their probes'.
 * Empty outside every pod.
 */
export function lanesAt(snapshot: ManifestSnapshot, position: Position): string[] {
  const placed = snapshot.podSpecAt(position);
  const pod = placed && namedPods(snapshot).find((p) => p.placed.spec === placed.spec)?.name;
  if (!placed || pod === undefined) return [];
  const local = chunkPosition(placed, position);
  const containers = placed.spec.containers.filter((c) => PROBING_CONTAINERS.includes(c.kind));
  const container = containers.find((c) => containsPosition(c.range, local));
  if (!container) return [podLaneKey(pod), ...containers.flatMap((c) => containerLanes(pod, c))];
  const probe = container.probes.find((p) => containsPosition(probeExtent(p), local));
  return probe ? [probeLaneKey(pod, container.name, probe.type)] : containerLanes(pod, container);
}

/** The lanes of a row of the Probes view (pod, container, probe) and of what it holds, as the manifest has them. */
export function lanesOf(snapshot: ManifestSnapshot | undefined, pod: string, container?: string, probe?: ProbeType): string[] {
  if (container !== undefined && probe !== undefined) return [probeLaneKey(pod, container, probe)];
  const placed = snapshot && namedPods(snapshot).find((p) => p.name === pod)?.placed;
  if (container !== undefined) {
    const model = placed && probingContainer(placed, container);
    return model ? containerLanes(pod, model) : [containerLaneKey(pod, container)];
  }
  const containers = placed?.spec.containers.filter((c) => PROBING_CONTAINERS.includes(c.kind)) ?? [];
  return [podLaneKey(pod), ...containers.flatMap((c) => containerLanes(pod, c))];
}

/** A container's lane and its probes', in the order the manifest writes them (as the panel shows them). */
function containerLanes(pod: string, container: ContainerModel): string[] {
  const probes = [...container.probes].sort((a, b) => comparePositions(a.keyRange.start, b.keyRange.start));
  return [containerLaneKey(pod, container.name), ...probes.map((p) => probeLaneKey(pod, container.name, p.type))];
}
