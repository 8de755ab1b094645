import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { diskText, type ReadText } from '../../core/render/files';
import { readOverlayGraph } from '../../core/render/kustomize/overlayGraph';
import { KUSTOMIZATION_FILES, type RenderSource, sourceOfFile } from '../../core/render/renderSource';

/** How many kustomization files of a workspace are read to know which overlays a file is in. */
const MAX_OVERLAYS = 500;

/**
 * Which charts and overlays an open file is part of, for the editor. A chart's values and
 * templates are found by where they sit (`sourceOfFile`). An overlay's resources and patches sit
 * anywhere its kustomization names (`../../base/deployment.yaml`), so the workspace's
 * kustomization files are read once (their graphs, no build) and kept current as they are edited.
 * A file several overlays build gets all of them, less those another one includes (a base built
 * by its overlays is not built again on its own).
 */
export class RenderSources implements vscode.Disposable {
  /** Overlay root → the files its build reads. */
  private readonly overlays = new Map<string, { files: ReadonlySet<string>; patches: ReadonlySet<string>; directories: readonly string[] }>();
  private indexed: Promise<void> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly changes = new vscode.EventEmitter<void>();
  /** The overlays known changed (a kustomization read again, or found): sources of open files may differ. */
  readonly onDidChange = this.changes.event;

  constructor(private readonly read: ReadText = diskText) {
    this.subscriptions.push(this.changes);
  }

  /**
   * Reads the workspace's kustomization files, once: asked for only when rendering may run
   * (trusted, enabled), and it runs nothing but file reads.
   */
  index(): Promise<void> {
    this.indexed ??= (async () => {
      const pattern = `**/{${KUSTOMIZATION_FILES.join(',')}}`;
      const found = await vscode.workspace.findFiles(pattern, '**/{node_modules,.git}/**', MAX_OVERLAYS);
      for (const uri of found) this.readOverlay(dirname(uri.fsPath));
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      this.subscriptions.push(
        watcher,
        watcher.onDidCreate((uri) => this.overlayChanged(dirname(uri.fsPath))),
        watcher.onDidChange((uri) => this.overlayChanged(dirname(uri.fsPath))),
        watcher.onDidDelete((uri) => this.overlayChanged(dirname(uri.fsPath))),
      );
      this.changes.fire();
    })();
    return this.indexed;
  }

  /** A kustomization was edited or saved: its overlay's files are read again. */
  overlayChanged(root: string): void {
    this.readOverlay(root);
    this.changes.fire();
  }

  /** The charts and overlays to render for a file (none: it is checked as written). */
  sourcesOf(file: string): RenderSource[] {
    const own = sourceOfFile(file);
    if (own?.kind === 'chart') return [own];
    const building = [...this.overlays].filter(([, overlay]) => overlay.files.has(file)).map(([root]) => root);
    if (own?.kind === 'overlay' && !building.includes(own.root)) building.push(own.root);
    const included = new Set(building.flatMap((root) => (this.overlays.get(root)?.directories ?? []).filter((dir) => dir !== root)));
    return building.filter((root) => !included.has(root) || root === own?.root).map((root) => ({ kind: 'overlay' as const, root }));
  }

  /** The files an overlay's build reads, as last read (`undefined`: not an overlay known here). */
  filesOf(root: string): ReadonlySet<string> | undefined {
    return this.overlays.get(root)?.files;
  }

  /** The patch files an overlay's build applies, its bases' included: fragments, not manifests of their own. */
  patchesOf(root: string): ReadonlySet<string> | undefined {
    return this.overlays.get(root)?.patches;
  }

  private readOverlay(root: string): void {
    const graph = readOverlayGraph(root, this.read);
    // A broken overlay keeps its own kustomization: its build is what says what is wrong.
    if (!graph.ok) {
      const own = KUSTOMIZATION_FILES.map((name) => `${root}/${name}`);
      if (own.some((file) => this.read(file) !== undefined)) this.overlays.set(root, { files: new Set(own), patches: new Set(), directories: [root] });
      else this.overlays.delete(root);
      return;
    }
    const patches = new Set([...graph.value.patchesOf.values()].flat());
    this.overlays.set(root, { files: new Set(graph.value.files), patches, directories: graph.value.directories });
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
  }
}
