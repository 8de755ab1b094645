import type * as vscode from 'vscode';
import type { ProbeType } from '../../core/manifest';
import type { ContainerSummary, ProbeSummary } from '../../core/session/summary';

/**
 * What the editor surfaces ask of running sessions: the state of a container or probe of a
 * manifest, by the pod names `desiredPodsOf` gives. Sessions implement it; lenses and hovers
 * don't need to know how probing works.
 */
export interface LiveState {
  readonly onDidChange: vscode.Event<void>;
  isProbing(uri: vscode.Uri): boolean;
  container(uri: vscode.Uri, pod: string, container: string): ContainerSummary | undefined;
  probe(uri: vscode.Uri, pod: string, container: string, type: ProbeType): ProbeSummary | undefined;
}
