import * as vscode from 'vscode';
import type { RunHeader } from '../../core/timeline/jsonl';
import { TIMELINE_VIEW_TYPE, type TimelineRestore, viewStateOf, type WebviewMessage } from '../../shared/protocol';
import { baseName } from '../documents/fileNames';
import type { ManifestModels } from '../documents/manifestModels';
import { toVsRange } from '../documents/positions';
import type { ProbingSession } from '../sessions/probingSession';
import { readSettings } from '../base/settings';
import { lanesAt, locateInManifest } from './manifestLanes';
import { timelineHtml, timelineWebviewOptions } from './panelHtml';
import { readRecording, recordingLimit, writeRecording } from './recordingFiles';
import { FailedTimeline, RecordingTimeline } from './recordingTimeline';
import type { SavedTimelines } from './savedTimelines';
import { ComparisonTimeline, type ComparisonRequest, comparisonKey } from './comparisonTimeline';
import { explainMoment } from './explainMoment';
import { exportableSession, SessionTimeline, sessionKey } from './sessionTimeline';
import { type Exportable, TimelinePanel, type TimelineContent } from './timelinePanel';
import { notify, PREFIX } from '../sessions/notices';

export interface TimelinePanelsDeps {
  readonly extensionUri: vscode.Uri;
  readonly models: ManifestModels;
  readonly saved: SavedTimelines;
  readonly log: vscode.LogOutputChannel;
}

/** Files above this get a cancellable notification while they are read; smaller ones, the status bar's spinner. */
const NOTIFY_ABOVE_BYTES = 16 * 1024 * 1024;

/**
 * The timeline panels: one `WebviewPanel` per session or per opened file (asked again, the one
 * there is shown), the panels VS Code revives after a window reload (`deserialize`), and what
 * their webviews ask for (reveal a probe, export). Disposing it keeps what revived panels need
 * and lets go of the sessions; the panels themselves stay for VS Code to revive.
 */
export class TimelinePanels implements vscode.Disposable {
  private readonly panels = new Map<string, TimelinePanel>();
  /** Panels revived with their content still being read. */
  private readonly pending = new Set<TimelinePanel>();
  private lastActive: TimelinePanel | undefined;
  private disposed = false;

  constructor(private readonly deps: TimelinePanelsDeps) {}

  get all(): readonly TimelinePanel[] {
    return [...this.panels.values()];
  }

  /** How many panels are open (cheap: the editor asks on every cursor move). */
  get count(): number {
    return this.panels.size;
  }

  /** The panel showing `session`, if one is open. */
  forSession(session: ProbingSession): TimelinePanel | undefined {
    return this.panels.get(sessionKey(session));
  }

  /** The panel that was active last (for *Export…* from the palette), if still open. */
  get active(): TimelinePanel | undefined {
    const active = this.all.find((p) => p.webviewPanel.active);
    return active ?? (this.lastActive && !this.lastActive.isDisposed ? this.lastActive : undefined);
  }

  /** Shows the session's panel (opened beside the editor if there is none), its `lanes` highlighted. */
  openSession(session: ProbingSession, lanes: readonly string[] = []): TimelinePanel {
    const existing = this.forSession(session);
    if (existing) {
      existing.highlight(lanes);
      existing.reveal();
      return existing;
    }
    const content = new SessionTimeline(session, this.deps.saved.fileFor(session.id), this.deps.log);
    const panel = this.create(content.key, content.title, content);
    panel.highlight(lanes);
    return panel;
  }

  /**
   * Opens a recording (JSON Lines) in its own panel; the panel already showing it is revealed
   * instead. The panel opens at once, its webview starting while the file is read (streamed,
   * bounded by `probeLens.timeline.maxEvents`). Failures close it, are shown, and resolve `undefined`.
   */
  async openFile(uri: vscode.Uri): Promise<TimelinePanel | undefined> {
    const key = `file:${uri.toString()}`;
    const existing = this.panels.get(key);
    if (existing) {
      existing.reveal(false);
      return existing;
    }
    // A file refused for its size opens no panel.
    const size = await vscode.workspace.fs.stat(uri).then(
      (stat) => stat.size,
      () => 0,
    );
    if (size > recordingLimit(uri)) {
      const refused = await readRecording(uri, readSettings(uri).timelineMaxEvents);
      if (!refused.ok) void notify('error', refused.reason);
      return undefined;
    }
    const panel = this.create(key, `Timeline · ${baseName(uri)}`, undefined, false);
    const content = await this.readContent('file', uri, undefined);
    if (content.failure !== undefined || this.disposed || panel.isDisposed) {
      if (content.failure !== undefined) void notify('error', content.failure);
      content.dispose();
      panel.dispose();
      return undefined;
    }
    panel.setContent(content);
    return panel;
  }

  /**
   * A recording and its replay one above the other (`probeLens.timeline.showComparison`): a panel
   * per title, its content replaced when the same comparison is made again.
   */
  openComparison(request: ComparisonRequest): TimelinePanel {
    const content = new ComparisonTimeline(request, readSettings().timelineMaxEvents);
    const existing = this.panels.get(comparisonKey(request.title));
    if (existing) {
      existing.setContent(content);
      existing.reveal(false);
      return existing;
    }
    return this.create(content.key, content.title, content, false);
  }

  /** A panel VS Code revives after a reload: its webview's state says what to read again. */
  async deserialize(webviewPanel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const restore = viewStateOf(state)?.restore;
    webviewPanel.webview.options = timelineWebviewOptions(this.deps.extensionUri);
    webviewPanel.webview.html = timelineHtml(webviewPanel.webview, this.deps.extensionUri, webviewPanel.title);
    // Listening from now on: the webview may say `ready` while its file is still being read.
    const panel = this.track(new TimelinePanel(webviewPanel, this.actions, undefined));
    this.pending.add(panel);
    try {
      const content = await this.revivedContent(restore, webviewPanel.title);
      const taken = this.panels.get(content.key);
      if (taken && taken !== panel) {
        // Already open (the same file twice): this one goes.
        content.dispose();
        panel.dispose();
        return;
      }
      if (!panel.isDisposed) this.panels.set(content.key, panel);
      panel.setContent(content);
    } finally {
      this.pending.delete(panel);
    }
  }

  /**
   * *Export…*: the events of a panel, or of a session without one, as JSON Lines to `to` (else
   * where the user says). Resolves with the file written, `undefined` if none.
   */
  async export(what: TimelinePanel | ProbingSession, to?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const content = what instanceof TimelinePanel ? what.content : undefined;
    if (what instanceof TimelinePanel && (!content || content.failure !== undefined)) return undefined;
    const exportable: Exportable = content ? content.exportable() : exportableSession(what as ProbingSession);
    const destination =
      to ??
      (await vscode.window.showSaveDialog({
        title: 'Export Timeline',
        saveLabel: 'Export',
        filters: { 'Timeline (JSON Lines)': ['jsonl'] },
        ...(exportable.folder ? { defaultUri: vscode.Uri.joinPath(exportable.folder, exportable.suggestedName) } : {}),
      }));
    if (!destination) return undefined;
    try {
      await writeRecording(destination, exportable.header, exportable.events);
    } catch (error) {
      void notify('error', `the timeline could not be written to ${baseName(destination)}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    this.deps.log.info(`timeline exported: ${exportable.count} events to ${destination.toString(true)}`);
    if (!to) void notify('info', `exported ${exportable.count.toLocaleString('en-US')} events to ${baseName(destination)}.`);
    return destination;
  }

  /**
   * A click on a lane or mark: the manifest opens with the probe's key (or the container's name)
   * selected. Resolves with the editor, `undefined` if the manifest no longer has it.
   */
  async reveal(panel: TimelinePanel, target: { readonly pod: string; readonly container: string; readonly probe?: string }): Promise<vscode.TextEditor | undefined> {
    const manifest = panel.content?.manifest;
    const what = `${target.pod}/${target.container}${target.probe ? ` ${target.probe}` : ''}`;
    if (!manifest) {
      void notify('warning', `this recording does not name a manifest of this workspace: ${what} cannot be shown.`);
      return undefined;
    }
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(manifest);
    } catch (error) {
      void notify('warning', `${baseName(manifest)} cannot be opened: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    const probe = target.probe === 'startup' || target.probe === 'readiness' || target.probe === 'liveness' ? target.probe : undefined;
    const range = locateInManifest(this.deps.models.get(document), target.pod, target.container, probe);
    if (!range) {
      void notify('warning', `${baseName(manifest)} no longer has ${what}.`);
      return undefined;
    }
    const selection = toVsRange(range);
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === document.uri.toString());
    const column = shown?.viewColumn ?? (panel.webviewPanel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One);
    const editor = await vscode.window.showTextDocument(document, { viewColumn: column, selection, preserveFocus: false, preview: false });
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return editor;
  }

  /**
   * The selection's *why*: the container explained at the moment asked, from the panel's lines up
   * to then, its times said on the panel's clock, and the answer sent back (a failure is an
   * answer too: the webview says it).
   */
  explain(panel: TimelinePanel, request: Extract<WebviewMessage, { type: 'explain' }>): void {
    const content = panel.content;
    const run = content?.explainable?.(request.section);
    if (!content || !run) {
      panel.answer(request.request, { failure: 'this timeline has no lines to explain' });
      return;
    }
    const started = performance.now();
    let answer: ReturnType<typeof explainMoment>;
    try {
      answer = explainMoment(run, request, content.source().clock);
    } catch (error) {
      // A bug in the insights must not leave the webview waiting: it is logged, and said.
      this.deps.log.error(`timeline: explaining ${request.pod}/${request.container} at ${request.t} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      answer = { failure: 'Probe Lens could not explain this moment (see the Probe Lens output)' };
    }
    this.deps.log.debug(`timeline: ${request.pod}/${request.container} at ${request.t} explained from ${run.events.length} lines in ${Math.round(performance.now() - started)} ms`);
    panel.answer(request.request, answer);
  }

  /** The editor's cursor moved in `document`: the panels of that manifest highlight what is under it. */
  highlightAt(document: vscode.TextDocument, position: vscode.Position): void {
    const key = document.uri.toString();
    const panels = this.all.filter((p) => p.content?.manifest?.toString() === key);
    if (panels.length === 0) return;
    const lanes = lanesAt(this.deps.models.get(document), { line: position.line, character: position.character });
    for (const panel of panels) panel.highlight(lanes);
  }

  /** Keeps what revived panels need: a live session's events are saved now (the extension deactivates). */
  persist(): void {
    for (const panel of this.panels.values()) panel.content?.persist();
  }

  /** Saved timelines that open panels read (pruning spares them). */
  savedInUse(): Set<string> {
    const inUse = new Set<string>();
    for (const panel of [...this.panels.values(), ...this.pending]) {
      const restore = panel.content?.restore;
      if (restore?.kind === 'saved') inUse.add(restore.uri);
    }
    return inUse;
  }

  /**
   * The extension deactivates: live sessions' events are saved for their panels, then everything
   * lets go. The `WebviewPanel`s are not closed: a window reload revives them.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.persist();
    for (const panel of this.panels.values()) panel.content?.dispose();
    this.panels.clear();
  }

  private readonly actions = {
    reveal: (panel: TimelinePanel, message: Extract<WebviewMessage, { type: 'reveal' }>) => this.reveal(panel, message),
    export: (panel: TimelinePanel) => this.export(panel),
    explain: (panel: TimelinePanel, message: Extract<WebviewMessage, { type: 'explain' }>) => this.explain(panel, message),
  };

  /** A panel for `key`; without `content` yet, it waits for `setContent` (its webview starts meanwhile). */
  private create(key: string, title: string, content: TimelineContent | undefined, preserveFocus = true): TimelinePanel {
    const webviewPanel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus }, timelineWebviewOptions(this.deps.extensionUri));
    webviewPanel.webview.html = timelineHtml(webviewPanel.webview, this.deps.extensionUri, title);
    const panel = this.track(new TimelinePanel(webviewPanel, this.actions, content));
    this.panels.set(key, panel);
    return panel;
  }

  private track(panel: TimelinePanel): TimelinePanel {
    panel.webviewPanel.onDidChangeViewState((event) => {
      if (event.webviewPanel.active) this.lastActive = panel;
    });
    if (panel.webviewPanel.active) this.lastActive = panel;
    panel.onDidDispose(() => {
      for (const [key, known] of this.panels) if (known === panel) this.panels.delete(key);
      if (this.lastActive === panel) this.lastActive = undefined;
    });
    return panel;
  }

  private async revivedContent(restore: TimelineRestore | undefined, title: string): Promise<TimelineContent> {
    if (!restore) return new FailedTimeline(`failed:${Date.now()}`, title, 'This timeline panel has nothing to show after the reload: open the timeline again.', undefined);
    const uri = parseUri(restore.uri);
    if (!uri) return new FailedTimeline(`failed:${restore.uri}`, title, 'This timeline panel has nothing to show after the reload: open the timeline again.', undefined);
    if (restore.kind === 'file') return this.readContent('file', uri, undefined);
    if (!this.deps.saved.holds(uri)) return new FailedTimeline(`failed:${restore.uri}`, title, 'This timeline panel names a file Probe Lens did not save: open the timeline again.', undefined);
    this.deps.saved.touch(uri);
    return this.readContent('saved', uri, restore.title);
  }

  /** Reads a recording into a panel's content; a failure is content too (a panel says it). */
  private async readContent(kind: 'file' | 'saved', uri: vscode.Uri, sessionTitleText: string | undefined): Promise<TimelineContent> {
    const capacity = readSettings(uri).timelineMaxEvents;
    const size = await vscode.workspace.fs.stat(uri).then(
      (s) => s.size,
      () => 0,
    );
    const title = kind === 'file' ? `Reading ${baseName(uri)}…` : 'Reading the saved timeline…';
    const started = performance.now();
    const read = await vscode.window.withProgress(
      { location: size > NOTIFY_ABOVE_BYTES ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window, title: `${PREFIX}${title}`, cancellable: size > NOTIFY_ABOVE_BYTES },
      (_progress, token) => readRecording(uri, capacity, token),
    );
    const key = `${kind}:${uri.toString()}`;
    const panelTitle = kind === 'file' ? `Timeline · ${baseName(uri)}` : 'Timeline (ended)';
    if (!read.ok) {
      const reason = kind === 'saved' && /cannot be read/.test(read.reason) ? 'the saved timeline of this ended session is gone' : read.reason;
      return new FailedTimeline(key, panelTitle, reason, kind === 'file' ? { kind: 'file', uri: uri.toString() } : undefined);
    }
    const { recording } = read;
    this.deps.log.info(
      `timeline ${kind === 'file' ? 'opened' : 'revived'}: ${baseName(uri)} (${Math.round(read.bytes / 1024)} KiB read in ${Math.round(performance.now() - started)} ms), ${recording.store.total} events${recording.store.total > recording.store.size ? ` (${recording.store.total - recording.store.size} dropped: the cap is ${capacity})` : ''}${recording.skipped > 0 ? `, ${recording.skipped} lines skipped` : ''}`,
    );
    const manifest = await manifestOf(uri, recording.header);
    return new RecordingTimeline(kind, uri, recording, sessionTitleText, manifest);
  }
}

/**
 * The manifest a recording's header names (`file`, as its writer gave it): an absolute path, or a
 * path relative to a workspace folder or to the recording's folder; `undefined` if none exists.
 */
async function manifestOf(recording: vscode.Uri, header: RunHeader | undefined): Promise<vscode.Uri | undefined> {
  const file = header?.file;
  if (typeof file !== 'string' || file === '') return undefined;
  const folder = vscode.Uri.joinPath(recording, '..');
  const candidates = file.startsWith('/') || /^[a-z]:[\\/]/i.test(file)
    ? [vscode.Uri.file(file)]
    : [...(vscode.workspace.workspaceFolders ?? []).map((f) => vscode.Uri.joinPath(f.uri, file)), vscode.Uri.joinPath(folder, file), vscode.Uri.joinPath(folder, file.split(/[\\/]/).pop() ?? file)];
  for (const candidate of candidates) {
    const stat = await vscode.workspace.fs.stat(candidate).then(undefined, () => undefined);
    if (stat && stat.type & vscode.FileType.File) return candidate;
  }
  return undefined;
}

function parseUri(text: string): vscode.Uri | undefined {
  try {
    return vscode.Uri.parse(text, true);
  } catch {
    return undefined;
  }
}

