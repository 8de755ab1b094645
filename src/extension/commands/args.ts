import * as vscode from 'vscode';
import { PROBE_TYPES, type ProbeType } from '../../core/manifest';
import { isManifestLanguage } from '../documents/manifestModels';
import type { ProbingSession } from '../sessions/probingSession';
import type { Sessions } from '../sessions/sessions';
import { isProbeTreeNode, type ProbeTreeNode } from '../tree/nodes';

/**
 * What a probing command was given, whichever way it was called:
 * - from the Probes view: the row (`ProbeTreeNode`);
 * - from a menu on an editor or file: its `Uri`;
 * - from a code lens or a test, positionally: `(uri, pod, container, probe)`;
 * - from a code lens or a test, as one object: `{uri, pod, pods, container, probe, sessionId,
 *   scenario, speed, seed, createScenario, context}`, every field optional. `uri` and `scenario` may be a
 *   `Uri` or a string (a URI, or an absolute file path).
 */
export interface CommandTarget {
  readonly node?: ProbeTreeNode;
  readonly uri?: vscode.Uri;
  readonly sessionId?: string;
  readonly pods?: readonly string[];
  readonly container?: string;
  readonly probe?: ProbeType;
  readonly scenario?: vscode.Uri;
  readonly createScenario?: boolean;
  readonly speed?: number;
  readonly seed?: number;
  /** A kubeconfig context: *Start Probing in the Cluster* then asks for none. */
  readonly context?: string;
}

export function readTarget(args: readonly unknown[]): CommandTarget {
  const [first, pod, container, probe] = args;
  if (isProbeTreeNode(first)) return fromNode(first);
  const uri = toUri(first);
  if (uri) {
    return {
      uri,
      ...(typeof pod === 'string' ? { pods: [pod] } : {}),
      ...(typeof container === 'string' ? { container } : {}),
      ...(isProbeType(probe) ? { probe } : {}),
    };
  }
  if (first === null || typeof first !== 'object') return {};
  const fields = first as Record<string, unknown>;
  const pods = Array.isArray(fields['pods']) ? fields['pods'].filter((p): p is string => typeof p === 'string') : typeof fields['pod'] === 'string' ? [fields['pod']] : undefined;
  const target: Record<string, unknown> = {};
  const fieldUri = toUri(fields['uri']);
  if (fieldUri) target['uri'] = fieldUri;
  if (typeof fields['sessionId'] === 'string') target['sessionId'] = fields['sessionId'];
  if (pods) target['pods'] = pods;
  if (typeof fields['container'] === 'string') target['container'] = fields['container'];
  if (isProbeType(fields['probe'])) target['probe'] = fields['probe'];
  const scenario = toUri(fields['scenario']);
  if (scenario) target['scenario'] = scenario;
  if (typeof fields['createScenario'] === 'boolean') target['createScenario'] = fields['createScenario'];
  if (typeof fields['speed'] === 'number') target['speed'] = fields['speed'];
  if (typeof fields['seed'] === 'number') target['seed'] = fields['seed'];
  if (typeof fields['context'] === 'string' && fields['context'] !== '') target['context'] = fields['context'];
  return target as CommandTarget;
}

function fromNode(node: ProbeTreeNode): CommandTarget {
  const base = { node, uri: node.session.uri, sessionId: node.session.id };
  switch (node.kind) {
    case 'session':
      return base;
    case 'pod':
      return { ...base, pods: [node.pod] };
    case 'container':
      return { ...base, pods: [node.pod], container: node.container };
    case 'probe':
      return { ...base, pods: [node.pod], container: node.container, probe: node.probe };
  }
}

/** A `Uri`, a URI string (`file:///…`), or an absolute path. */
function toUri(value: unknown): vscode.Uri | undefined {
  if (value instanceof vscode.Uri) return value;
  if (isUriLike(value)) return vscode.Uri.from(value);
  if (typeof value !== 'string' || value === '') return undefined;
  return /^[a-z][a-z0-9+.-]+:/i.test(value) && !/^[a-z]:[\\/]/i.test(value) ? vscode.Uri.parse(value) : vscode.Uri.file(value);
}

/** A URI revived from JSON (`{scheme, path, …}`), as a command from elsewhere may pass it. */
function isUriLike(value: unknown): value is { scheme: string; path: string; authority?: string; query?: string; fragment?: string } {
  if (value === null || typeof value !== 'object') return false;
  const fields = value as Record<string, unknown>;
  return typeof fields['scheme'] === 'string' && typeof fields['path'] === 'string' && !('uri' in fields);
}

function isProbeType(value: unknown): value is ProbeType {
  return typeof value === 'string' && (PROBE_TYPES as readonly string[]).includes(value);
}

/** The manifest in the active editor, if it is YAML. */
export function activeManifest(): vscode.Uri | undefined {
  const document = vscode.window.activeTextEditor?.document;
  return document && isManifestLanguage(document) ? document.uri : undefined;
}

/**
 * Which sessions a command may be about: those running, or also the one kept for review after it
 * stopped (its timeline can still be exported or compared; it can no longer be stopped).
 */
export type SessionScope = 'running' | 'running-or-ended';

/** The session a command's arguments name: its tree row's, the one with that id, or its manifest's; nothing when they name none. */
export function namedSession(target: CommandTarget, sessions: Sessions, scope: SessionScope): ProbingSession | undefined {
  const ended = scope === 'running-or-ended' ? sessions.ended : undefined;
  if (target.node) return !target.node.session.isStopped || target.node.session === ended ? target.node.session : undefined;
  if (target.sessionId) return sessions.byId(target.sessionId) ?? (ended?.id === target.sessionId ? ended : undefined);
  if (target.uri) return sessions.forDocument(target.uri) ?? (ended?.uri.toString() === target.uri.toString() ? ended : undefined);
  return undefined;
}

/** The running session a command is about: the one its arguments name, else the active manifest's. */
export function sessionOf(target: CommandTarget, sessions: Sessions): ProbingSession | undefined {
  const given = target.node !== undefined || target.sessionId !== undefined || target.uri !== undefined;
  if (given) return namedSession(target, sessions, 'running');
  const active = activeManifest();
  return active ? sessions.forDocument(active) : undefined;
}
