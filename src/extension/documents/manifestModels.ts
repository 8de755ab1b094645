import * as vscode from 'vscode';
import { EMPTY_SNAPSHOT, IncrementalChecker, ManifestSnapshot } from '../../core/editing/incrementalChecker';
import type { ServiceModel } from '../../core/manifest';
import { checkSettingsOf, type ProbeLensSettings, readSettings, SECTION } from '../settings';

export interface ModelUpdate {
  readonly document: vscode.TextDocument;
  readonly snapshot: ManifestSnapshot;
}

interface Entry {
  readonly checker: IncrementalChecker;
  version: number;
  snapshot: ManifestSnapshot;
  pending: NodeJS.Timeout | undefined;
}

/** The settings findings depend on (`checkSettingsOf`): a change to one of them re-checks every open manifest. */
const CHECK_SETTINGS = ['disabledRules', 'kubernetesVersion', 'expectedStartupSeconds'].map((name) => `${SECTION}.${name}`);
/** Only how long typing waits before a re-read: taken from the next edit on, nothing is re-checked. */
const DEBOUNCE_SETTING = `${SECTION}.debounceMs`;

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
  private readonly subscriptions: vscode.Disposable[];
  private settings: ProbeLensSettings = readSettings();
  /** How many chunks (documents of a file) were read in all: for tests and measurements. */
  chunksRead = 0;
  /** When the last read began and how long it took (`performance.now()` ms): for measurements. */
  lastReadStartedAt = 0;
  lastReadMs = 0;

  readonly onDidUpdate = this.updates.event;

  constructor() {
    this.subscriptions = [
      this.updates,
      vscode.workspace.onDidOpenTextDocument((d) => this.refresh(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        const recheck = CHECK_SETTINGS.some((setting) => e.affectsConfiguration(setting));
        if (!recheck && !e.affectsConfiguration(DEBOUNCE_SETTING)) return;
        this.settings = readSettings();
        if (recheck) vscode.workspace.textDocuments.forEach((d) => this.refresh(d));
      }),
    ];
    vscode.workspace.textDocuments.forEach((d) => this.refresh(d));
  }

  /** The snapshot of the document's current version (read now if the debounce has not fired). */
  get(document: vscode.TextDocument): ManifestSnapshot {
    if (!isManifestLanguage(document)) return EMPTY_SNAPSHOT;
    const entry = this.entries.get(document.uri.toString());
    if (entry && entry.version === document.version) return entry.snapshot;
    return this.refresh(document);
  }

  /**
   * The snapshot of the document's current version once the debounced read has happened: what
   * surfaces VS Code re-requests on every change (code lenses) wait for, so typing costs one read
   * per pause, not one per keystroke. A document with no read pending is read now.
   */
  whenRead(document: vscode.TextDocument, token?: vscode.CancellationToken): Promise<ManifestSnapshot> {
    const entry = this.entries.get(document.uri.toString());
    if (!isManifestLanguage(document) || !entry?.pending || entry.version === document.version) return Promise.resolve(this.get(document));
    return new Promise((resolve) => {
      const done = (snapshot: ManifestSnapshot) => {
        subscriptions.forEach((s) => s.dispose());
        resolve(snapshot);
      };
      const subscriptions = [
        this.onDidUpdate((update) => {
          if (update.document === document && (document.isClosed || entry.version === document.version)) done(update.snapshot);
        }),
        ...(token ? [token.onCancellationRequested(() => done(entry.snapshot))] : []),
      ];
    });
  }

  /** The snapshot last read for a document, whatever its version (for surfaces that may lag). */
  latest(uri: vscode.Uri): ManifestSnapshot | undefined {
    return this.entries.get(uri.toString())?.snapshot;
  }

  private schedule(document: vscode.TextDocument): void {
    if (!isManifestLanguage(document)) return;
    const entry = this.entryOf(document);
    clearTimeout(entry.pending);
    entry.pending = setTimeout(() => {
      entry.pending = undefined;
      if (!document.isClosed && entry.version !== document.version) this.refresh(document);
    }, this.settings.debounceMs);
  }

  private refresh(document: vscode.TextDocument): ManifestSnapshot {
    if (!isManifestLanguage(document) || document.isClosed) return EMPTY_SNAPSHOT;
    const started = (this.lastReadStartedAt = performance.now());
    const entry = this.entryOf(document);
    clearTimeout(entry.pending);
    entry.pending = undefined;
    const text = document.getText();
    const services = this.servicesBeside(document);
    const snapshot = mayHoldPodSpec(text)
      ? entry.checker.check(text, checkSettingsOf(this.settings), services)
      : mayHoldService(text)
        ? withoutFindings(entry.checker.check(text, checkSettingsOf(this.settings), services))
        : EMPTY_SNAPSHOT;
    this.chunksRead += snapshot.chunksRead;
    entry.version = document.version;
    const servicesChanged = JSON.stringify(entry.snapshot.services) !== JSON.stringify(snapshot.services);
    entry.snapshot = snapshot;
    this.updates.fire({ document, snapshot });
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
      if (snapshot?.podSpecs.some((placed) => placed.spec.objectKind === 'Job' || placed.spec.objectKind === 'CronJob')) this.refresh(other);
    }
  }

  private entryOf(document: vscode.TextDocument): Entry {
    const key = document.uri.toString();
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { checker: new IncrementalChecker(document.uri.fsPath), version: -1, snapshot: EMPTY_SNAPSHOT, pending: undefined };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private forget(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    const entry = this.entries.get(key);
    clearTimeout(entry?.pending);
    if (!this.entries.delete(key)) return;
    this.updates.fire({ document, snapshot: EMPTY_SNAPSHOT });
    if (entry && entry.snapshot.services.length > 0) this.recheckJobsBeside(document);
  }

  dispose(): void {
    this.entries.forEach((e) => clearTimeout(e.pending));
    this.entries.clear();
    this.subscriptions.forEach((s) => s.dispose());
  }
}

function withoutFindings(snapshot: ManifestSnapshot): ManifestSnapshot {
  return new ManifestSnapshot(snapshot.chunks, [], snapshot.chunksRead);
}

export function isManifestLanguage(document: vscode.TextDocument): boolean {
  return document.languageId === 'yaml';
}
