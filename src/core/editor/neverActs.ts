import { resolveContainerPort } from '../manifest/ports';
import type { ProbeModel } from '../manifest';
import type { Finding } from '../rules/types';

/** The findings the hover and the lenses look at: those of the probe's document. */
export type HoverFinding = Pick<Finding, 'rule' | 'severity' | 'path' | 'message'>;

/** Why a probe can never act (`whyNeverActs`). */
export type NeverActs =
  | { readonly kind: 'init' | 'ephemeral' | 'no-handler' }
  | { readonly kind: 'rejected'; readonly finding: HoverFinding }
  | { readonly kind: 'undeclared-port'; readonly port: string | number };

/**
 * Why the probe can never act, first reason first: forbidden where it is (P14, P16), rejected by
 * the API server (its own error findings), no handler (P01), or a named port the container does
 * not declare (L01: every attempt is a prober error, which counts neither way).
 */
export function whyNeverActs(probe: ProbeModel, findings: readonly HoverFinding[]): NeverActs | undefined {
  const { container } = probe;
  if (container.kind === 'init' || container.kind === 'ephemeral') return { kind: container.kind };
  const rejection = findings.find((f) => f.severity === 'error' && /^(P\d|D0)/.test(f.rule) && (f.path === probe.path || f.path.startsWith(`${probe.path}.`)));
  if (rejection) return { kind: 'rejected', finding: rejection };
  const handler = probe.effective.handler;
  if (!handler) return { kind: 'no-handler' };
  if ((handler.type === 'httpGet' || handler.type === 'tcpSocket') && !resolveContainerPort(handler.port, container.spec).ok) return { kind: 'undeclared-port', port: handler.port };
  return undefined;
}
