import * as vscode from 'vscode';
import type { EngineEvent } from '../../core/engine/events';
import { type ReplayResult, replayRecording } from '../../core/replay/replay';
import { type ReplayJson, replayJson, replayTable } from '../../core/replay/replayReport';
import type { Manifest } from '../../core/manifest';
import { playableManifest } from '../../core/check';
import { type RunHeader, runHeader } from '../../core/timeline/jsonl';
import { baseName } from '../documents/fileNames';
import { isManifestLanguage } from '../documents/manifestModels';
import { notify } from '../sessions/notices';
import type { ProbingSession } from '../sessions/probingSession';
import type { Sessions } from '../sessions/sessions';
import { readSettings } from '../base/settings';
import { readRecording } from '../timeline/recordingFiles';
import { exportableSession } from '../timeline/sessionTimeline';
import type { TimelinePanel } from '../timeline/timelinePanel';
import type { TimelinePanels } from '../timeline/timelinePanels';
import { namedSession, readTarget } from './args';
import { pickSession } from './pickers';
import { COMMANDS } from '../base/commandIds';

/** The read-only documents *What if…* shows its comparison in. */
export const WHAT_IF_SCHEME = 'probe-lens-whatif';
/** The timeline's internal command that draws a recording above its replay. */
/** What VS Code gives a command run from a webview editor's title: the panel's own resource. */
const WEBVIEW_PANEL_SCHEME = 'webview-panel';

export interface WhatIfDeps {
  readonly sessions: Sessions;
  readonly panels: TimelinePanels;
  readonly log: vscode.LogOutputChannel;
}

/** What *What if…* resolves with (for tests and scripts): where the table is, and what it says. */
export interface WhatIfOutcome {
  readonly document: vscode.Uri;
  readonly report: ReplayJson;
  /** Whether the timeline showed both runs one above the other. */
  readonly timeline: boolean;
}

/** A recorded session: its lines, what to call it, and the manifest it ran, when known. */
interface Recorded {
  readonly header: RunHeader | undefined;
  readonly events: readonly EngineEvent[];
  readonly label: string;
  readonly manifest: vscode.Uri | undefined;
}

/**
 * `probeLens.whatIf([row | uri | {sessionId | uri | recording, manifest}])`: the app a recorded
 * session saw, replayed against the CURRENT text of its manifest (unsaved edits included), and
 * compared with what happened — a table in a read-only document beside the editor and, in the
 * timeline, both runs one above the other. The session is the row's or the one named, else the
 * active timeline panel's, else the active manifest's (running or ended), else one picked.
 */
export function registerWhatIf(deps: WhatIfDeps): vscode.Disposable {
  const documents = new WhatIfDocuments();
  return vscode.Disposable.from(
    documents,
    vscode.workspace.registerTextDocumentContentProvider(WHAT_IF_SCHEME, documents),
    vscode.commands.registerCommand(COMMANDS.whatIf, (...args: unknown[]) => whatIf(deps, documents, withoutPanelResource(args))),
  );
}

/**
 * From the timeline panel's title button, VS Code passes the panel's resource (`webview-panel:…`),
 * which names no manifest nor session: the panel it stands for is the active one, as from the
 * palette.
 */
function withoutPanelResource(args: readonly unknown[]): readonly unknown[] {
  const first = args[0];
  return first instanceof vscode.Uri && first.scheme === WEBVIEW_PANEL_SCHEME ? [] : args;
}

async function whatIf(deps: WhatIfDeps, documents: WhatIfDocuments, args: readonly unknown[]): Promise<WhatIfOutcome | undefined> {
  const recorded = await recordedSession(deps, args);
  if (!recorded) return undefined;
  const manifestUri = explicitManifest(args) ?? recorded.manifest ?? (await chooseManifest());
  if (!manifestUri) return undefined;
  const current = await currentManifest(manifestUri);
  if (typeof current === 'string') return fail(current);
  const { manifest, dirty } = current;
  const started = performance.now();
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Probe Lens: replaying ${recorded.label} against ${baseName(manifestUri)}` }, async () => {
    // Let the progress show before the replay takes the thread.
    await new Promise((resolve) => setImmediate(resolve));
    return replayRecording({ header: recorded.header, events: recorded.events, manifest });
  });
  deps.log.info(`what if: ${recorded.label} replayed against ${baseName(manifestUri)} (${recorded.events.length} events, ${Math.round(result.durationSeconds)} s, ${Math.round(performance.now() - started)} ms)`);
  const title = `What if · ${baseName(manifestUri)}`;
  const document = documents.show(title, whatIfText(result, recorded.label, manifestUri, dirty));
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
  showTimelines(deps.panels, title, recorded, result, manifestUri);
  return { document, report: replayJson(result), timeline: true };
}

/** The table, with where each side comes from; short lines, for a column beside the editor. */
function whatIfText(result: ReplayResult, label: string, manifest: vscode.Uri, dirty: boolean): string {
  const heading = [
    `What if · ${baseName(manifest)}${dirty ? ' (as edited, unsaved changes included)' : ''}`,
    `before: ${label}, ${Math.round(result.durationSeconds)} s as recorded`,
    `after:  the same app, replayed with ${baseName(manifest)}`,
  ].join('\n');
  return `${replayTable(result, heading)}
Edit the manifest and ask again: Probe Lens: What If…
In a terminal: probe-lens replay RECORDING.jsonl --manifest ${vscode.workspace.asRelativePath(manifest, false)}
`;
}

/** The recorded run above its replay, in the timeline's comparison panel. */
function showTimelines(panels: TimelinePanels, title: string, recorded: Recorded, result: ReplayResult, manifest: vscode.Uri): TimelinePanel {
  const replayedHeader = runHeader({ mode: 'simulate', kind: 'simulated', file: vscode.workspace.asRelativePath(manifest, false), durationSeconds: result.durationSeconds, replayOf: recorded.label });
  return panels.openComparison({ title, recorded: { header: recorded.header, events: recorded.events }, replayed: { header: replayedHeader, events: result.events } });
}

/** The recorded session the command is about (see `registerWhatIf`). */
async function recordedSession(deps: WhatIfDeps, args: readonly unknown[]): Promise<Recorded | undefined> {
  const fields = (args[0] !== null && typeof args[0] === 'object' && !(args[0] instanceof vscode.Uri) ? args[0] : {}) as Record<string, unknown>;
  const recordingFile = toUri(fields['recording']) ?? (args[0] instanceof vscode.Uri && args[0].path.endsWith('.jsonl') ? args[0] : undefined);
  if (recordingFile) return fromFile(recordingFile);
  const target = readTarget(args);
  const named = namedSession(target, deps.sessions, 'running-or-ended');
  if (named) return fromSession(named);
  if (target.uri !== undefined) {
    const shown = deps.panels.all.find((p) => p.content?.manifest?.toString() === target.uri?.toString());
    const recorded = shown && fromPanel(shown);
    if (recorded) return recorded;
  }
  if (target.sessionId !== undefined || target.uri !== undefined) return fail(`there is no recorded session of ${target.uri ? baseName(target.uri) : target.sessionId}: start probing or a simulation first, or open a recording in the timeline`);
  const activePanel = deps.panels.all.find((p) => p.webviewPanel.active);
  const fromActivePanel = activePanel && fromPanel(activePanel);
  if (fromActivePanel) return fromActivePanel;
  const editorSession = activeEditorSession(deps.sessions);
  if (editorSession) return fromSession(editorSession);
  const lastPanel = deps.panels.active;
  const fromLastPanel = lastPanel && fromPanel(lastPanel);
  if (fromLastPanel) return fromLastPanel;
  const picked = await pickSession(deps.sessions.shown, 'What If…');
  if (picked) return fromSession(picked);
  return fail('there is no recorded session: start probing or a simulation, or open a recording in the timeline (Probe Lens: Open Timeline from File…), then ask What If… again');
}

/**
 * What a timeline panel shows (a session, or a recording read from a file); nothing for one that
 * failed to load or holds no single recording (a comparison's two runs export nothing).
 */
function fromPanel(panel: TimelinePanel): Recorded | undefined {
  const content = panel.content;
  if (!content || content.failure !== undefined) return undefined;
  const exportable = content.exportable();
  if (exportable.count === 0) return undefined;
  return { header: exportable.header, events: [...exportable.events], label: content.title.replace(/^Timeline · /, ''), manifest: content.manifest };
}

function fromSession(session: ProbingSession): Recorded {
  const exportable = exportableSession(session);
  return { header: exportable.header, events: [...exportable.events], label: `the ${session.kind} session of ${session.label}`, manifest: session.uri };
}

async function fromFile(uri: vscode.Uri): Promise<Recorded | undefined> {
  const read = await readRecording(uri, readSettings(uri).timelineMaxEvents);
  if (!read.ok) return fail(read.reason);
  return { header: read.recording.header, events: read.recording.store.events(), label: baseName(uri), manifest: await namedManifest(uri, read.recording.header) };
}

/**
 * The manifest a recording's header names (`file`, as its writer gave it), relative to a
 * workspace folder or to the recording's folder, if it is there.
 */
async function namedManifest(recording: vscode.Uri, header: RunHeader | undefined): Promise<vscode.Uri | undefined> {
  const file = header?.file;
  if (typeof file !== 'string' || file === '') return undefined;
  const folders = [...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri), vscode.Uri.joinPath(recording, '..')];
  const candidates = file.startsWith('/') ? [vscode.Uri.file(file)] : folders.map((folder) => vscode.Uri.joinPath(folder, file));
  for (const candidate of candidates) {
    const stat = await vscode.workspace.fs.stat(candidate).then(undefined, () => undefined);
    if (stat && stat.type & vscode.FileType.File) return candidate;
  }
  return undefined;
}

/** The active editor's manifest's session: running, or the one that ended last. */
function activeEditorSession(sessions: Sessions): ProbingSession | undefined {
  const document = vscode.window.activeTextEditor?.document;
  return document ? namedSession({ uri: document.uri }, sessions, 'running-or-ended') : undefined;
}

/** `{manifest}`, or a manifest's URI given with a recording. */
function explicitManifest(args: readonly unknown[]): vscode.Uri | undefined {
  const first = args[0];
  if (first === null || typeof first !== 'object' || first instanceof vscode.Uri) return undefined;
  return toUri((first as Record<string, unknown>)['manifest']);
}

/** A recording that does not name its manifest: the active YAML editor's, else one the user opens. */
async function chooseManifest(): Promise<vscode.Uri | undefined> {
  const active = vscode.window.activeTextEditor?.document;
  if (active && isManifestLanguage(active)) return active.uri;
  const open = vscode.workspace.textDocuments.filter((d) => isManifestLanguage(d) && d.uri.scheme !== WHAT_IF_SCHEME);
  if (open.length > 0) {
    const chosen = await vscode.window.showQuickPick(
      open.map((d) => ({ label: baseName(d.uri), description: vscode.workspace.asRelativePath(d.uri, false), uri: d.uri })),
      { title: 'What If…', placeHolder: 'Replay the recording against which manifest?' },
    );
    return chosen?.uri;
  }
  const picked = await vscode.window.showOpenDialog({ title: 'What If…: the manifest to replay against', openLabel: 'Replay', canSelectMany: false, filters: { YAML: ['yaml', 'yml'] } });
  return picked?.[0];
}

/** The manifest as the editor has it now: an open document's text (unsaved edits included), else the file's. */
async function currentManifest(uri: vscode.Uri): Promise<{ readonly manifest: Manifest; readonly dirty: boolean } | string> {
  let document: vscode.TextDocument;
  try {
    document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? (await vscode.workspace.openTextDocument(uri));
  } catch (error) {
    return `${baseName(uri)} cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
  const minorVersion = readSettings(uri).minorVersion;
  const playable = playableManifest(document.getText(), baseName(uri), minorVersion);
  if (playable.ok) return { manifest: playable.manifest, dirty: document.isDirty };
  const broken = playable.unreadable;
  if (broken) return `${baseName(uri)} is not valid YAML (line ${broken.range.start.line + 1}: ${broken.message}): fix it, then ask What If… again`;
  return `${baseName(uri)} has no container with a probe to replay the recording against`;
}

function toUri(value: unknown): vscode.Uri | undefined {
  if (value instanceof vscode.Uri) return value;
  if (typeof value !== 'string' || value === '') return undefined;
  return /^[a-z][a-z0-9+.-]*:/i.test(value) && !/^[a-z]:[\\/]/i.test(value) ? vscode.Uri.parse(value) : vscode.Uri.file(value);
}

function fail(message: string): undefined {
  void notify('error', message);
  return undefined;
}

/**
 * The comparisons, as read-only documents: one per title (a manifest's *What if…* asked again
 * replaces its text, and an open editor of it follows).
 */
class WhatIfDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;

  show(title: string, text: string): vscode.Uri {
    // No file extension VS Code knows: the document stays plain text, never read as a manifest.
    const uri = vscode.Uri.from({ scheme: WHAT_IF_SCHEME, path: `/${title} (replayed)` });
    const known = this.texts.has(uri.toString());
    this.texts.set(uri.toString(), text);
    if (known) this.changes.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This comparison is gone (the window was reloaded): ask Probe Lens: What If… again.';
  }

  dispose(): void {
    this.changes.dispose();
    this.texts.clear();
  }
}
