import type { ProbeType } from '../../core/manifest';
import type { ProbingSession } from '../sessions/probingSession';

/**
 * The rows of the Probes view. Commands run from its context menu receive these (see
 * commands/args.ts); their `contextValue` is `contextValueOf`'s (tree/probeTree.ts).
 */
export type ProbeTreeNode =
  | { readonly kind: 'session'; readonly id: string; readonly session: ProbingSession }
  | ({ readonly kind: 'pod'; readonly id: string; readonly session: ProbingSession; readonly pod: string } & SpecOf)
  | ({ readonly kind: 'container'; readonly id: string; readonly session: ProbingSession; readonly pod: string; readonly container: string } & SpecOf)
  | ({ readonly kind: 'probe'; readonly id: string; readonly session: ProbingSession; readonly pod: string; readonly container: string; readonly probe: ProbeType } & SpecOf);

/**
 * A row of one cluster pod among several probed for one manifest pod (`--all-pods`): `pod` is
 * the cluster pod's name, `spec` the manifest pod whose containers and probes it runs.
 */
interface SpecOf {
  readonly spec?: string;
}

/** The manifest pod whose spec a row follows. */
export function specPodOf(node: Extract<ProbeTreeNode, { pod: string }>): string {
  return node.spec ?? node.pod;
}

export function isProbeTreeNode(value: unknown): value is ProbeTreeNode {
  if (value === null || typeof value !== 'object') return false;
  const node = value as { kind?: unknown; id?: unknown; session?: unknown };
  return typeof node.id === 'string' && typeof node.session === 'object' && ['session', 'pod', 'container', 'probe'].includes(String(node.kind));
}
