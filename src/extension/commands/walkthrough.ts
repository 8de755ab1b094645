import * as vscode from 'vscode';
import { exists } from '../documents/fileNames';
import type { Outcome } from '../sessions/launcher';
import { notify } from '../sessions/notices';
import { COMMANDS } from '../base/commandIds';

/**
 * The *Get Started with Probe Lens* walkthrough's commands (package.json `contributes.walkthroughs`).
 * Its example ships in the extension (media/walkthrough/example/) and is opened as a copy in the
 * extension's global storage: a real file, so *Simulate…* finds the scenario beside it and saving
 * a quick fix works, whatever folder (or none) the window has open — and nothing is written into
 * the user's workspace.
 */
export function registerWalkthrough(context: vscode.ExtensionContext): vscode.Disposable {
  const example = new WalkthroughExample(
    vscode.Uri.joinPath(context.extensionUri, 'media', 'walkthrough', 'example'),
    vscode.Uri.joinPath(context.globalStorageUri, 'walkthrough'),
  );
  return vscode.Disposable.from(
    vscode.commands.registerCommand(COMMANDS.openWalkthroughExample, () => example.open()),
    vscode.commands.registerCommand(COMMANDS.simulateWalkthroughExample, () => example.simulate()),
  );
}

const MANIFEST = 'web.yaml';
/** Named after the manifest, so *Simulate…* offers it first when run on the example by hand. */
const SCENARIO = 'web.scenario.yaml';
/** A minute in 6 s: the example's first liveness kill comes 3 s into the simulation. */
const WALKTHROUGH_SPEED = 10;

class WalkthroughExample {
  constructor(
    private readonly packaged: vscode.Uri,
    private readonly copies: vscode.Uri,
  ) {}

  get manifest(): vscode.Uri {
    return vscode.Uri.joinPath(this.copies, MANIFEST);
  }

  get scenario(): vscode.Uri {
    return vscode.Uri.joinPath(this.copies, SCENARIO);
  }

  /** `probeLens.walkthrough.openExample` → the editor of the example's copy (made on first use). */
  async open(): Promise<vscode.TextEditor | undefined> {
    const copied = await this.copyOnce();
    if (!copied.ok) return fail(`cannot copy the example into ${this.copies.fsPath}: ${copied.reason}`);
    return vscode.window.showTextDocument(this.manifest, { preview: false, viewColumn: besideAPage() });
  }

  /** `probeLens.walkthrough.simulateExample` → the session: the example, shown, played with its scenario. */
  async simulate(): Promise<unknown> {
    // From the walkthrough, the active editor is the walkthrough itself: say which manifest.
    if (!(await this.open())) return undefined;
    return vscode.commands.executeCommand(COMMANDS.simulate, { uri: this.manifest, scenario: this.scenario, speed: WALKTHROUGH_SPEED });
  }

  /**
   * Copies the packaged files that have no copy yet. An existing copy is the user's: it may hold
   * the quick fix they saved, which a step run again must not undo.
   */
  private async copyOnce(): Promise<Outcome<void>> {
    try {
      await vscode.workspace.fs.createDirectory(this.copies);
      for (const name of [MANIFEST, SCENARIO]) {
        const copy = vscode.Uri.joinPath(this.copies, name);
        if (!(await exists(copy))) await vscode.workspace.fs.copy(vscode.Uri.joinPath(this.packaged, name), copy);
      }
      return { ok: true, value: undefined };
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }
}

/**
 * Beside the active editor when it is not a text editor (the walkthrough's page, a timeline), so
 * that the walkthrough's next step stays in view; else in place.
 */
function besideAPage(): vscode.ViewColumn {
  const page = vscode.window.activeTextEditor === undefined && vscode.window.tabGroups.activeTabGroup.activeTab !== undefined;
  return page ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
}

function fail(reason: string): undefined {
  void notify('error', reason);
  return undefined;
}
