import * as vscode from 'vscode';
import type { Fix, Finding } from '../../core/rules/types';
import type { Range } from '../../core/text/range';
import { workspaceEditOf } from '../commands/fixCommands';
import type { RenderedModels } from '../rendering/renderedModels';
import { DIAGNOSTIC_SOURCE } from './diagnostics';

/**
 * The quick fixes of rendered findings, at the place each was mapped to: a fix that rewrites a
 * rendered value (`successThreshold: 2` → `1`) edits the values key or template literal a proof
 * showed to write it. A fix never writes into `{{ }}` (a place is never proven there; an edit that
 * would touch one is dropped), and none is offered on text edited since the render.
 */
export class RenderedQuickFixes implements vscode.CodeActionProvider {
  static register(rendered: RenderedModels): vscode.Disposable {
    const selector: vscode.DocumentSelector = ['yaml', 'helm'].map((language) => ({ language, scheme: 'file' }));
    return vscode.languages.registerCodeActionsProvider(selector, new RenderedQuickFixes(rendered), { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] });
  }

  private constructor(private readonly rendered: RenderedModels) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    if (ours.length === 0) return [];
    const findings = this.currentFindings(document);
    const text = document.getText();
    return ours.flatMap((diagnostic) => {
      const finding = findings.find((f) => f.rule === codeOf(diagnostic) && f.range.start.line === diagnostic.range.start.line && f.range.start.character === diagnostic.range.start.character);
      const fixes = (finding?.fixes ?? []).filter((fix) => fix.edits.every((edit) => !touchesTemplate(text, edit.range)));
      return fixes.map((fix: Fix, index) => {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.edit = workspaceEditOf(document.uri, fix.edits);
        action.diagnostics = [diagnostic];
        action.isPreferred = index === 0;
        return action;
      });
    });
  }

  /** The rendered findings placed in this document, from renders of its current text. */
  private currentFindings(document: vscode.TextDocument): Finding[] {
    return this.rendered.sourcesOfDocument(document).flatMap((source) => {
      const result = this.rendered.resultOf(source.root);
      if (!result?.outcome.ok || result.versions.get(document.uri.toString()) !== document.version) return [];
      return result.outcome.value.findings.filter((f) => f.file === document.uri.fsPath);
    });
  }
}

function codeOf(diagnostic: vscode.Diagnostic): string | undefined {
  const code = diagnostic.code;
  return code === undefined ? undefined : typeof code === 'object' ? String(code.value) : String(code);
}

/** The edit's lines hold a template action (`{{ … }}`) that the range reaches into. */
export function touchesTemplate(text: string, range: Range): boolean {
  const lines = text.split('\n');
  for (let line = range.start.line; line <= range.end.line; line++) {
    const content = lines[line] ?? '';
    for (const match of content.matchAll(/\{\{.*?(?:\}\}|$)/g)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      const from = line === range.start.line ? range.start.character : 0;
      const to = line === range.end.line ? range.end.character : content.length;
      if (from < end && to > start) return true;
    }
  }
  return false;
}
