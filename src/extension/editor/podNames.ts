import type { ManifestSnapshot } from '../../core/editor/incrementalChecker';
import { desiredPodsOf } from '../../core/engine/manager';
import type { PodSpecModel } from '../../core/manifest';

/** The name each pod spec of a snapshot runs under in a session (the engine's own naming). */
export function podNamesOf(snapshot: ManifestSnapshot): Map<PodSpecModel, string> {
  return new Map(desiredPodsOf(snapshot.documents).map((pod) => [pod.spec, pod.identity.name]));
}
