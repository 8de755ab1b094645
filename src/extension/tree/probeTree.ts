import * as vscode from 'vscode';
import { handlerTitle, probeExtent } from '../../core/analysis/probeText';
import type { DesiredPod } from '../../core/engine/manager';
import { type ContainerModel, PROBING_CONTAINERS, type ProbeType } from '../../core/manifest';
import { containsPosition, type Position } from '../../core/text/range';
import type { ProbingSession } from '../sessions/probingSession';
import type { Sessions } from '../sessions/sessions';
import { Throttle } from '../sessions/throttle';
import { type Presentation, presentContainer, presentPod, presentProbe, presentSession } from './format';
import type { ProbeTreeNode } from './nodes';

export const PROBES_VIEW = 'probeLens.probes';
/** However many events arrive, the tree is redrawn at most this often. */
const REFRESH_MS = 250;

/**
 * Sessions → pods → containers → probes. Structure comes from each session's pods as last synced
 * (so a probe shows before its first attempt), state from its summary. Nodes are cached by id, so
 * `reveal` and the view's selection see the same objects from one refresh to the next.
 */
export class ProbeTreeProvider implements vscode.TreeDataProvider<ProbeTreeNode>, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<ProbeTreeNode | undefined>();
  private readonly nodes = new Map<string, ProbeTreeNode>();
  private readonly throttle = new Throttle(REFRESH_MS, () => this.refresh());
  private readonly subscription: vscode.Disposable;
  /** How many times the view was told to redraw: for tests of the throttle. */
  refreshes = 0;

  readonly onDidChangeTreeData = this.changes.event;

  constructor(private readonly sessions: Sessions) {
    this.subscription = sessions.onDidChange(() => this.throttle.poke());
  }

  getChildren(node?: ProbeTreeNode): ProbeTreeNode[] {
    if (!node) return this.sessions.all.map((session) => this.node({ kind: 'session', id: session.id, session }));
    const { session } = node;
    switch (node.kind) {
      case 'session':
        return session.pods.map((p) => this.node({ kind: 'pod', id: `${session.id}/${p.identity.name}`, session, pod: p.identity.name }));
      case 'pod':
        return probingContainers(session, node.pod).map((c) => this.node({ kind: 'container', id: `${node.id}/${c.name}`, session, pod: node.pod, container: c.name }));
      case 'container':
        return (containerModel(session, node.pod, node.container)?.probes ?? []).map((p) =>
          this.node({ kind: 'probe', id: `${node.id}/${p.type}`, session, pod: node.pod, container: node.container, probe: p.type }),
        );
      case 'probe':
        return [];
    }
  }

  getParent(node: ProbeTreeNode): ProbeTreeNode | undefined {
    const { session } = node;
    switch (node.kind) {
      case 'session':
        return undefined;
      case 'pod':
        return this.node({ kind: 'session', id: session.id, session });
      case 'container':
        return this.node({ kind: 'pod', id: `${session.id}/${node.pod}`, session, pod: node.pod });
      case 'probe':
        return this.node({ kind: 'container', id: `${session.id}/${node.pod}/${node.container}`, session, pod: node.pod, container: node.container });
    }
  }

  getTreeItem(node: ProbeTreeNode): vscode.TreeItem {
    const shown = this.present(node);
    const item = new vscode.TreeItem(shown.label, node.kind === 'probe' ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Expanded);
    item.id = node.id;
    item.description = shown.description;
    item.iconPath = new vscode.ThemeIcon(shown.icon.id, shown.icon.color ? new vscode.ThemeColor(shown.icon.color) : undefined);
    const tooltip = new vscode.MarkdownString(shown.tooltip.markdown);
    if (shown.tooltip.code !== undefined) tooltip.appendCodeblock(shown.tooltip.code, 'text');
    item.tooltip = tooltip;
    item.contextValue = contextValueOf(node);
    return item;
  }

  /** What a row says (label, description, icon, tooltip), for tests and the status bar. */
  present(node: ProbeTreeNode): Presentation {
    const { session } = node;
    switch (node.kind) {
      case 'session': {
        const containers = session.pods.flatMap((p) => probingContainersOf(p).map((c) => session.summary.pods.get(p.identity.name)?.containers.get(c.name)));
        return presentSession({ kind: session.kind, label: session.label, detail: session.options.detail, elapsedSeconds: session.elapsedSeconds, containers });
      }
      case 'pod': {
        const pod = session.summary.pods.get(node.pod);
        return presentPod(node.pod, pod, probingContainers(session, node.pod).map((c) => pod?.containers.get(c.name)));
      }
      case 'container':
        return presentContainer(node.container, session.summary.pods.get(node.pod)?.containers.get(node.container));
      case 'probe': {
        const model = containerModel(session, node.pod, node.container)?.probe(node.probe);
        const container = session.summary.pods.get(node.pod)?.containers.get(node.container);
        return presentProbe({
          type: node.probe,
          summary: container?.probes.get(node.probe),
          last: session.lastAttempt(node.pod, node.container, node.probe),
          failureThreshold: model?.effective.failureThreshold ?? 3,
          handler: handlerTitle(model?.effective.handler),
          running: container?.state === 'running',
        });
      }
    }
  }

  /** The node of a session, or of one of its pods, containers or probes (`undefined` if it has no such thing). */
  find(session: ProbingSession, pod?: string, container?: string, probe?: ProbeType): ProbeTreeNode | undefined {
    if (pod === undefined) return this.node({ kind: 'session', id: session.id, session });
    if (!session.pods.some((p) => p.identity.name === pod)) return undefined;
    const podId = `${session.id}/${pod}`;
    if (container === undefined) return this.node({ kind: 'pod', id: podId, session, pod });
    const model = containerModel(session, pod, container);
    if (!model || !PROBING_CONTAINERS.includes(model.kind)) return undefined;
    if (probe === undefined) return this.node({ kind: 'container', id: `${podId}/${container}`, session, pod, container });
    if (!model.probe(probe)) return undefined;
    return this.node({ kind: 'probe', id: `${podId}/${container}/${probe}`, session, pod, container, probe });
  }

  /** The deepest node for a position in the session's manifest: a probe, else its container or pod. */
  nodeAt(session: ProbingSession, position: Position): ProbeTreeNode | undefined {
    const placed = session.snapshot?.podSpecAt(position);
    const pod = placed && session.podNameOf(placed);
    if (!placed || !pod) return undefined;
    const local = { line: position.line - placed.lineOffset, character: position.character };
    const container = placed.spec.containers.find((c) => PROBING_CONTAINERS.includes(c.kind) && containsPosition(c.range, local));
    if (!container) return this.find(session, pod);
    const probe = container.probes.find((p) => containsPosition(probeExtent(p), local));
    return this.find(session, pod, container.name, probe?.type);
  }

  refresh(): void {
    this.prune();
    this.refreshes++;
    this.changes.fire(undefined);
  }

  dispose(): void {
    this.throttle.dispose();
    this.subscription.dispose();
    this.changes.dispose();
    this.nodes.clear();
  }

  private node<T extends ProbeTreeNode>(fresh: T): T {
    const known = this.nodes.get(fresh.id);
    if (known && known.session === fresh.session) return known as T;
    this.nodes.set(fresh.id, fresh);
    return fresh;
  }

  /** Nodes of stopped sessions go. */
  private prune(): void {
    for (const [id, node] of this.nodes) if (node.session.isStopped) this.nodes.delete(id);
  }
}

function contextValueOf(node: ProbeTreeNode): string {
  switch (node.kind) {
    case 'session':
    case 'pod':
      return node.kind;
    case 'container':
      return node.session.kind === 'simulated' ? 'container.simulated' : 'container';
    case 'probe':
      return `probe.${node.probe}`;
  }
}

function probingContainers(session: ProbingSession, pod: string): ContainerModel[] {
  const desired = session.pods.find((p) => p.identity.name === pod);
  return desired ? probingContainersOf(desired) : [];
}

function probingContainersOf(pod: DesiredPod): ContainerModel[] {
  return pod.spec.containers.filter((c) => PROBING_CONTAINERS.includes(c.kind));
}

function containerModel(session: ProbingSession, pod: string, container: string): ContainerModel | undefined {
  return probingContainers(session, pod).find((c) => c.name === container);
}
