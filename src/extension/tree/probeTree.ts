import * as vscode from 'vscode';
import { probeExtent } from '../../core/editor/probeText';
import { handlerTitle } from '../../core/manifest/handlerTitle';
import { chunkPosition } from '../../core/editor/lineMap';
import type { DesiredPod } from '../../core/engine/manager';
import { type ContainerModel, PROBING_CONTAINERS, type ProbeType } from '../../core/manifest';
import { containsPosition, type Position } from '../../core/text/range';
import type { ProbingSession } from '../sessions/probingSession';
import type { Sessions } from '../sessions/sessions';
import { podsFor } from '../../core/session/clusterText';
import { type Presentation, presentContainer, presentPod, presentPodGroup, presentProbe, presentSession, wallTime } from './format';
import { type ProbeTreeNode, specPodOf } from './nodes';
import { SessionExplanations } from '../sessions/sessionExplanations';

export const PROBES_VIEW = 'probeLens.probes';

/** What a row shows, and the same as one string to tell a change. */
interface Shown {
  readonly presentation: Presentation;
  readonly contextValue: string;
  readonly signature: string;
}

/**
 * Sessions → pods → containers → probes: the running sessions, then the one that ended last
 * (frozen, to be reviewed). Structure comes from each session's pods as last synced (so a probe
 * shows before its first attempt), state from its published snapshot. Nodes are cached by id, so
 * `reveal` and the view's selection see the same objects from one refresh to the next, and only
 * rows whose text changed are redrawn: a row redrawn under the mouse closes its tooltip.
 */
export class ProbeTreeProvider implements vscode.TreeDataProvider<ProbeTreeNode>, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<ProbeTreeNode | ProbeTreeNode[] | undefined>();
  private readonly nodes = new Map<string, ProbeTreeNode>();
  /** Per node id: what its row shows, as of the snapshots last rendered. */
  private readonly shown = new Map<string, Shown>();
  /** Per session id: the version of the snapshot its rows were last rendered from. */
  private readonly versions = new Map<string, number>();
  /** Per pods-as-synced array: the tree's shape it gives (the array changes only on a sync). */
  private readonly shapes = new WeakMap<readonly DesiredPod[], string>();
  private structure = '';
  /** Why each container is in its state: a session's history indexed at most once per snapshot, and a row's why at most 5 s old (a redraw closes its tooltip). */
  private readonly explanations = new SessionExplanations();
  private readonly subscription: vscode.Disposable;
  /** How many times the view was told to redraw (all of it or some rows): for tests. */
  refreshes = 0;
  /** How many times it was told to redraw all of it (a session came or went, a manifest's shape changed): for tests. */
  fullRefreshes = 0;
  /** Per row id, how many times it was told to redraw that row (and so the rows under it): for tests. */
  readonly rowRedraws = new Map<string, number>();

  readonly onDidChangeTreeData = this.changes.event;

  constructor(private readonly sessions: Sessions) {
    this.subscription = sessions.onDidChange(() => this.update());
    this.structure = this.structureNow();
  }

  getChildren(node?: ProbeTreeNode): ProbeTreeNode[] {
    if (!node) return this.sessions.shown.map((session) => this.node({ kind: 'session', id: session.id, session }));
    const { session } = node;
    switch (node.kind) {
      case 'session':
        return session.pods.map((p) => this.node({ kind: 'pod', id: `${session.id}/${p.identity.name}`, session, pod: p.identity.name }));
      case 'pod': {
        const members = node.spec === undefined ? clusterMembers(session, node.pod) : [];
        if (members.length > 0) return members.map((name) => this.node({ kind: 'pod', id: podRowId(session, name, node.pod), session, pod: name, spec: node.pod }));
        const spec = specOf(node);
        return probingContainers(session, specPodOf(node)).map((c) => this.node({ kind: 'container', id: `${node.id}/${c.name}`, session, pod: node.pod, container: c.name, ...spec }));
      }
      case 'container':
        return (containerModel(session, specPodOf(node), node.container)?.probes ?? []).map((p) =>
          this.node({ kind: 'probe', id: `${node.id}/${p.type}`, session, pod: node.pod, container: node.container, probe: p.type, ...specOf(node) }),
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
        return node.spec === undefined ? this.node({ kind: 'session', id: session.id, session }) : this.node({ kind: 'pod', id: `${session.id}/${node.spec}`, session, pod: node.spec });
      case 'container':
        return this.node({ kind: 'pod', id: podRowId(session, node.pod, node.spec), session, pod: node.pod, ...specOf(node) });
      case 'probe':
        return this.node({ kind: 'container', id: `${podRowId(session, node.pod, node.spec)}/${node.container}`, session, pod: node.pod, container: node.container, ...specOf(node) });
    }
  }

  getTreeItem(node: ProbeTreeNode): vscode.TreeItem {
    const { presentation: shown, contextValue } = this.shownOf(node);
    const item = new vscode.TreeItem(shown.label, node.kind === 'probe' ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Expanded);
    item.id = node.id;
    item.description = shown.description;
    item.iconPath = new vscode.ThemeIcon(shown.icon.id, shown.icon.color ? new vscode.ThemeColor(shown.icon.color) : undefined);
    const tooltip = new vscode.MarkdownString(shown.tooltip.markdown);
    if (shown.tooltip.code !== undefined) tooltip.appendCodeblock(shown.tooltip.code, 'text');
    item.tooltip = tooltip;
    item.contextValue = contextValue;
    return item;
  }

  /** What a row says now (label, description, icon, tooltip), for tests. */
  present(node: ProbeTreeNode): Presentation {
    return this.shownOf(node).presentation;
  }

  /** The version of the session snapshot the rows show (`undefined`: not shown). */
  renderedVersion(session: ProbingSession): number | undefined {
    return this.versions.get(session.id);
  }

  /** The node of a session, or of one of its pods, containers or probes (`undefined` if it has no such thing). */
  find(session: ProbingSession, pod?: string, container?: string, probe?: ProbeType): ProbeTreeNode | undefined {
    if (pod === undefined) return this.node({ kind: 'session', id: session.id, session });
    if (!session.pods.some((p) => p.identity.name === pod)) return undefined;
    if (container === undefined) return this.node({ kind: 'pod', id: `${session.id}/${pod}`, session, pod });
    const model = containerModel(session, pod, container);
    if (!model || !PROBING_CONTAINERS.includes(model.kind)) return undefined;
    // Several cluster pods probed for this one (`--all-pods`): the first one's rows stand for it.
    const member = clusterMembers(session, pod)[0];
    const where = member === undefined ? { pod } : { pod: member, spec: pod };
    const podId = podRowId(session, where.pod, where.spec);
    if (probe === undefined) return this.node({ kind: 'container', id: `${podId}/${container}`, session, ...where, container });
    if (!model.probe(probe)) return undefined;
    return this.node({ kind: 'probe', id: `${podId}/${container}/${probe}`, session, ...where, container, probe });
  }

  /** The deepest node for a position in the session's manifest: a probe, else its container or pod. */
  nodeAt(session: ProbingSession, position: Position): ProbeTreeNode | undefined {
    const placed = session.snapshot?.podSpecAt(position);
    const pod = placed && session.podNameOf(placed);
    if (!placed || !pod) return undefined;
    const local = chunkPosition(placed, position);
    const container = placed.spec.containers.find((c) => PROBING_CONTAINERS.includes(c.kind) && containsPosition(c.range, local));
    if (!container) return this.find(session, pod);
    const probe = container.probes.find((p) => containsPosition(probeExtent(p), local));
    return this.find(session, pod, container.name, probe?.type);
  }

  /** Everything redrawn from the sessions' snapshots as they are now. */
  refresh(): void {
    this.prune();
    this.shown.clear();
    this.noteVersions();
    this.refreshes++;
    this.fullRefreshes++;
    this.changes.fire(undefined);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
    this.nodes.clear();
    this.shown.clear();
    this.rowRedraws.clear();
  }

  /**
   * A session started, stopped or published: a new shape redraws everything, otherwise only the
   * rows whose text changed are redrawn (the others keep their tooltips open).
   */
  private update(): void {
    const structure = this.structureNow();
    if (structure !== this.structure) {
      this.structure = structure;
      this.refresh();
      return;
    }
    const changed: ProbeTreeNode[] = [];
    for (const node of this.nodes.values()) {
      const before = this.shown.get(node.id);
      const now = this.render(node);
      if (before?.signature === now.signature) continue;
      this.shown.set(node.id, now);
      if (before) changed.push(node);
    }
    this.noteVersions();
    if (changed.length === 0) return;
    this.refreshes++;
    for (const node of changed) this.rowRedraws.set(node.id, (this.rowRedraws.get(node.id) ?? 0) + 1);
    this.changes.fire(changed);
  }

  private shownOf(node: ProbeTreeNode): Shown {
    let shown = this.shown.get(node.id);
    if (!shown) this.shown.set(node.id, (shown = this.render(node)));
    return shown;
  }

  private render(node: ProbeTreeNode): Shown {
    const presentation = this.presentNow(node);
    const contextValue = contextValueOf(node);
    const { label, description, icon, tooltip } = presentation;
    const signature = [label, description, icon.id, icon.color ?? '', tooltip.markdown, tooltip.code ?? '', contextValue].join('\u0000');
    return { presentation, contextValue, signature };
  }

  private presentNow(node: ProbeTreeNode): Presentation {
    const { session } = node;
    const state = session.state;
    switch (node.kind) {
      case 'session':
        return presentSession({
          kind: session.kind,
          label: session.label,
          detail: session.options.detail,
          state,
          startedAt: wallTime(session.startedAt),
          ...(state.endedAt !== undefined ? { endedAt: wallTime(state.endedAt) } : {}),
        });
      case 'pod': {
        const members = node.spec === undefined && !state.pods.has(node.pod) ? podsFor(state.pods, node.pod) : [];
        return members.length > 0 ? presentPodGroup(node.pod, members, state.kills) : presentPod(node.pod, state.pods.get(node.pod), state.kills);
      }
      case 'container':
        return presentContainer(node.container, state.pods.get(node.pod)?.containers.get(node.container), state.kills, this.explanations.explain(session, node.pod, node.container, { maxAgeMs: 5_000 }));
      case 'probe': {
        const model = containerModel(session, specPodOf(node), node.container)?.probe(node.probe);
        const container = state.pods.get(node.pod)?.containers.get(node.container);
        return presentProbe({
          type: node.probe,
          probe: container?.probes.get(node.probe),
          failureThreshold: model?.effective.failureThreshold ?? 3,
          handler: handlerTitle(model?.effective.handler, model?.container.spec),
          running: container?.state === 'running' && state.endedAt === undefined,
        });
      }
    }
  }

  private node<T extends ProbeTreeNode>(fresh: T): T {
    const known = this.nodes.get(fresh.id);
    if (known && known.session === fresh.session) return known as T;
    this.nodes.set(fresh.id, fresh);
    return fresh;
  }

  /** Nodes of sessions no longer shown go (`noteVersions` then notes those shown). */
  private prune(): void {
    const shown = new Set(this.sessions.shown);
    for (const [id, node] of this.nodes) if (!shown.has(node.session)) this.nodes.delete(id);
    this.versions.clear();
    for (const id of this.rowRedraws.keys()) if (!this.nodes.has(id)) this.rowRedraws.delete(id);
  }

  private noteVersions(): void {
    for (const session of this.sessions.shown) this.versions.set(session.id, session.state.version);
  }

  /** The sessions shown (running or ended) and each one's pods, containers and probes. */
  private structureNow(): string {
    return this.sessions.shown.map((session) => `${session.id}:${session.isStopped ? 'ended' : 'running'}:${this.shapeOf(session.pods)}${membersShape(session)}`).join('\n');
  }

  private shapeOf(pods: readonly DesiredPod[]): string {
    let shape = this.shapes.get(pods);
    if (shape === undefined) {
      shape = pods.map((p) => `${p.identity.name}(${probingContainersOf(p).map((c) => `${c.name}[${c.probes.map((probe) => probe.type).join(',')}]`).join(',')})`).join(';');
      this.shapes.set(pods, shape);
    }
    return shape;
  }
}

/**
 * For menus' `when` clauses: `session` (local, cluster), `session.simulated.playing` /
 * `session.simulated.paused`, `session.ended`; `pod`; `container`, `container.simulated`,
 * `container.ended`; `probe.<type>`.
 */
export function contextValueOf(node: ProbeTreeNode): string {
  const { session } = node;
  switch (node.kind) {
    case 'session':
      if (session.isStopped) return 'session.ended';
      if (session.simulation) return session.simulation.paused ? 'session.simulated.paused' : 'session.simulated.playing';
      return 'session';
    case 'pod':
      return 'pod';
    case 'container':
      return session.isStopped ? 'container.ended' : session.kind === 'simulated' ? 'container.simulated' : 'container';
    case 'probe':
      return `probe.${node.probe}`;
  }
}

/** With `--all-pods`, the cluster pods probed for a manifest pod (each a row of its own); else none. */
function clusterMembers(session: ProbingSession, manifestPod: string): string[] {
  if (session.kind !== 'cluster' || session.state.pods.has(manifestPod)) return [];
  return podsFor(session.state.pods, manifestPod).map((pod) => pod.name);
}

/** A cluster session's rows per cluster pod come and go with its pods (`--all-pods`). */
function membersShape(session: ProbingSession): string {
  if (session.kind !== 'cluster') return '';
  return session.pods.map((p) => clusterMembers(session, p.identity.name).join(',')).join(';');
}

/** A pod row's id: the manifest pod's, or a cluster pod's under it (`--all-pods`). */
function podRowId(session: ProbingSession, pod: string, spec: string | undefined): string {
  return spec === undefined ? `${session.id}/${pod}` : `${session.id}/${spec}/@${pod}`;
}

function specOf(node: { readonly spec?: string }): { spec?: string } {
  return node.spec === undefined ? {} : { spec: node.spec };
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
