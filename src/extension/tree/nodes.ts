import type { ProbeType } from '../../core/manifest';
import type { ProbingSession } from '../sessions/probingSession';

/**
 * The rows of the Probes view. Commands run from its context menu receive these (see
 * commands/args.ts); their `contextValue` is `contextValueOf`'s (tree/probeTree.ts).
 */
export type ProbeTreeNode =
  | { readonly kind: 'session'; readonly id: string; readonly session: ProbingSession }
  | { readonly kind: 'pod'; readonly id: string; readonly session: ProbingSession; readonly pod: string }
  | { readonly kind: 'container'; readonly id: string; readonly session: ProbingSession; readonly pod: string; readonly container: string }
  | { readonly kind: 'probe'; readonly id: string; readonly session: ProbingSession; readonly pod: string; readonly container: string; readonly probe: ProbeType };

export function isProbeTreeNode(value: unknown): value is ProbeTreeNode {
  if (value === null || typeof value !== 'object') return false;
  const node = value as { kind?: unknown; id?: unknown; session?: unknown };
  return typeof node.id === 'string' && typeof node.session === 'object' && ['session', 'pod', 'container', 'probe'].includes(String(node.kind));
}
