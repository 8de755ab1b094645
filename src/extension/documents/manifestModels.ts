import * as vscode from 'vscode';
import { EMPTY_SNAPSHOT, IncrementalChecker, ManifestSnapshot } from '../../core/editor/incrementalChecker';
import type { ServiceModel } from '../../core/manifest';
import { checkSettingsOf, type ProbeLensSettings, readSettings, SECTION } from '../base/settings';

/** Why a document was read: an edit's read is one VS Code asks code lenses for by itself. */
export type ReadCause = 'edit' | 'open' | 'settings' | 'beside' | 'close';

export interface ModelUpdate {
  readonly document: vscode.TextDocument;
  readonly snapshot: ManifestSnapshot;
  readonly cause: ReadCause;
}

interface Entry {
  readonly checker: IncrementalChecker;
  version: number;
  snapshot: ManifestSnapshot;
  pending: NodeJS.Timeout | undefined;
  /** A read whose showing waits for VS Code to show its code lenses (`showWithLenses`). */
  unshown: { readonly update: ModelUpdate; readonly timer: NodeJS.Timeout } | undefined;
}

/**
 * How long a read waits for VS Code to show the code lenses of its version before its findings
 * are shown anyway. VS Code asks for lenses at least 250 ms after the last keystroke and resolves
 * those in view after another debounce (each adapts to how long providers take; fixed at 375 ms
 * in a development host); our read comes 200 ms after it (`probeLens.debounceMs`). Only an editor
 * that never asks waits this long: one that lost focus meanwhile (Code then cancels its request).
 */
const LENS_WAIT_MS = 1_500;

/** The settings findings depend on (`checkSettingsOf`): a change to one of them re-checks every open manifest. */
const CHECK_SETTINGS = ['disabledRules', 'kubernetesVersion', 'expectedStartupSeconds', 'render.enabled', 'helm.path'].map((name) => `${SECTION}.${name}`);

/**
 * A YAML file can only hold a pod spec if the word appears in it: other YAML (CI workflows,
 * compose files) costs one scan per change and gets no findings.
 */
function mayHoldPodSpec(text: string): boolean {
  return text.includes('containers');
}

/** A file of Services only is read for them (a Service may select another file's Job pods), but gets no findings. */
function mayHoldService(text: string): boolean {
  return /\bkind:\s*["']?Service\b/.test(text);
}

/**
 * The one place manifests are read in the editor: each open YAML document's findings and models,
 * by version. Re-reads are debounced while typing and incremental (only the changed documents of
 * a file); a reader that needs the current version before the debounce fires gets it at once, and
 * the timer then has nothing left to do. Everything else (diagnostics, code lenses, hovers, quick
 * fixes, sessions) reads from here.
 */
export class ManifestModels implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly updates = new vscode.EventEmitter<ModelUpdate>();
  private readonly shown = new vscode.EventEmitter<ModelUpdate>();
  private readonly subscriptions: vscode.Disposable[];
  /** Per workspace folder (a multi-root workspace's folders each have their own), read on first use. */
  private readonly settingsByFolder = new Map<string, ProbeLensSettings>();
  /** How many chunks (documents of a file) were read in all: for tests and measurements. */
  chunksRead = 0;
  /** When the last read began and how long it took (`performance.now()` ms): for measurements. */
  lastReadStartedAt = 0;
  lastReadMs = 0;

  /** Every read, as soon as it is done: what sessions and panels follow. */
  readonly onDidUpdate = this.updates.event;
  /**
   * A read the editor shows now: at once, or, for an edit's read in a visible editor, when VS
   * Code takes its code lenses. Diagnostics publish from here, so that findings and lenses of the
   * same read appear together.
   */
  readonly onDidShow = this.shown.event;

  constructor() {
    this.subscriptions = [
      this.updates,
      this.shown,
      vscode.workspace.onDidOpenTextDocument((d) => this.refresh(d, 'open')),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)),
      // A template's Y03 says what turns rendering on, trust among it.
      vscode.workspace.onDidGrantWorkspaceTrust(() => vscode.workspace.textDocuments.forEach((d) => this.refresh(d, 'settings'))),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(SECTION)) return;
        this.settingsByFolder.clear();
        for (const document of vscode.workspace.textDocuments) {
          if (CHECK_SETTINGS.some((setting) => e.affectsConfiguration(setting, document))) this.refresh(document, 'settings');
        }
      }),
    ];
    vscode.workspace.textDocuments.forEach((d) => this.refresh(d, 'open'));
  }

  /** The settings a document is checked with: its workspace folder's (a folder may override the workspace's). */
  private settingsOf(document: vscode.TextDocument): ProbeLensSettings {
    const key = vscode.workspace.getWorkspaceFolder(document.uri)?.uri.toString() ?? '';
    let settings = this.settingsByFolder.get(key);
    if (!settings) {
      settings = readSettings(document);
      this.settingsByFolder.set(key, settings);
    }
    return settings;
  }

  /** The snapshot of the document's current version (read now if the debounce has not fired). */
  get(document: vscode.TextDocument): ManifestSnapshot {
    if (!isManifestLanguage(document)) return EMPTY_SNAPSHOT;
    const entry = this.entries.get(document.uri.toString());
    if (entry && entry.version === document.version) return entry.snapshot;
    return this.refresh(document);
  }

  /** The findings of this read wait for its code lenses to be shown (`showWithLenses`). */
  awaitsLenses(document: vscode.TextDocument, snapshot: ManifestSnapshot): boolean {
    return this.entries.get(document.uri.toString())?.unshown?.update.snapshot === snapshot;
  }

  /** The code lenses of a read are shown: so are its findings, if they were waiting for them. */
  showWithLenses(document: vscode.TextDocument, snapshot: ManifestSnapshot): void {
    const entry = this.entries.get(document.uri.toString());
    if (entry?.unshown && entry.unshown.update.snapshot === snapshot) this.showNow(entry);
  }

  private schedule(document: vscode.TextDocument): void {
    if (!isManifestLanguage(document)) return;
    const entry = this.entryOf(document);
    clearTimeout(entry.pending);
    entry.pending = setTimeout(() => {
      entry.pending = undefined;
      if (!document.isClosed && entry.version !== document.version) this.refresh(document, 'edit');
    }, this.settingsOf(document).debounceMs);
  }

  private refresh(document: vscode.TextDocument, cause: ReadCause = 'edit'): ManifestSnapshot {
    if (!isManifestLanguage(document) || document.isClosed) return EMPTY_SNAPSHOT;
    const started = (this.lastReadStartedAt = performance.now());
    const entry = this.entryOf(document);
    clearTimeout(entry.pending);
    entry.pending = undefined;
    const text = document.getText();
    const services = this.servicesBeside(document);
    const settings = checkSettingsOf(this.settingsOf(document), vscode.workspace.isTrusted);
    const snapshot = mayHoldPodSpec(text)
      ? entry.checker.check(text, settings, services)
      : mayHoldService(text)
        ? withoutFindings(entry.checker.check(text, settings, services))
        : EMPTY_SNAPSHOT;
    this.chunksRead += snapshot.chunksRead;
    entry.version = document.version;
    const servicesChanged = JSON.stringify(entry.snapshot.services) !== JSON.stringify(snapshot.services);
    entry.snapshot = snapshot;
    const update = { document, snapshot, cause };
    this.updates.fire(update);
    this.showWhenLensesAsk(entry, update);
    this.lastReadMs = performance.now() - started;
    if (servicesChanged) this.recheckJobsBeside(document);
    return snapshot;
  }

  /** The Services of the other open manifests, for the rules that look across documents (L17). */
  private servicesBeside(document: vscode.TextDocument): ServiceModel[] {
    const key = document.uri.toString();
    return [...this.entries].flatMap(([uri, entry]) => (uri === key ? [] : entry.snapshot.services));
  }

  /** A Service appeared, changed or went: the other manifests' Jobs may now be selected, or no longer. */
  private recheckJobsBeside(document: vscode.TextDocument): void {
    for (const other of vscode.workspace.textDocuments) {
      if (other === document || !isManifestLanguage(other)) continue;
      const snapshot = this.entries.get(other.uri.toString())?.snapshot;
      if (snapshot?.podSpecs.some((placed) => placed.spec.objectKind === 'Job' || placed.spec.objectKind === 'CronJob')) this.refresh(other, 'beside');
    }
  }

  /**
   * An edit's read in an editor showing code lenses waits for VS Code to take them (it asks after
   * every edit, by itself), so that the findings and lenses of a read appear together; any other
   * read is shown at once.
   */
  private showWhenLensesAsk(entry: Entry, update: ModelUpdate): void {
    if (entry.unshown) clearTimeout(entry.unshown.timer);
    entry.unshown = undefined;
    if (update.cause !== 'edit' || !showsCodeLenses(update.document)) {
      this.shown.fire(update);
      return;
    }
    entry.unshown = { update, timer: setTimeout(() => this.showNow(entry), LENS_WAIT_MS) };
  }

  private showNow(entry: Entry): void {
    const unshown = entry.unshown;
    if (!unshown) return;
    clearTimeout(unshown.timer);
    entry.unshown = undefined;
    this.shown.fire(unshown.update);
  }

  private entryOf(document: vscode.TextDocument): Entry {
    const key = document.uri.toString();
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { checker: new IncrementalChecker(document.uri.fsPath), version: -1, snapshot: EMPTY_SNAPSHOT, pending: undefined, unshown: undefined };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private forget(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    const entry = this.entries.get(key);
    clearTimeout(entry?.pending);
    clearTimeout(entry?.unshown?.timer);
    if (!this.entries.delete(key)) return;
    const update = { document, snapshot: EMPTY_SNAPSHOT, cause: 'close' as const };
    this.updates.fire(update);
    this.shown.fire(update);
    if (entry && entry.snapshot.services.length > 0) this.recheckJobsBeside(document);
  }

  dispose(): void {
    this.entries.forEach((e) => {
      clearTimeout(e.pending);
      clearTimeout(e.unshown?.timer);
    });
    this.entries.clear();
    this.subscriptions.forEach((s) => s.dispose());
  }
}

function withoutFindings(snapshot: ManifestSnapshot): ManifestSnapshot {
  return new ManifestSnapshot(snapshot.chunks, [], snapshot.chunksRead);
}

/** VS Code will ask for the document's code lenses after an edit: it is in a visible editor that shows them. */
function showsCodeLenses(document: vscode.TextDocument): boolean {
  return vscode.window.visibleTextEditors.some((editor) => editor.document === document) && vscode.workspace.getConfiguration('editor', document).get<boolean>('codeLens', true);
}

export function isManifestLanguage(document: vscode.TextDocument): boolean {
  return document.languageId === 'yaml';
}
