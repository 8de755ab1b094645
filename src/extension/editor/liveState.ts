import type * as vscode from 'vscode';
import type { ProbeType } from '../../core/manifest';
import type { SessionSnapshot } from '../../core/session/snapshot';
import type { ContainerSummary, ProbeSummary } from '../../core/session/summary';

/**
 * What the editor surfaces ask of running sessions: the state of a container or probe of a
 * manifest, by the pod names `desiredPodsOf` gives. Sessions implement it; lenses and hovers
 * don't need to know how probing works. Everything comes from the session's published snapshot,
 * so lenses, hovers, the Probes view and the status bar say the same thing at the same moment.
 */
export interface LiveState {
  /** A session started, stopped, or published a new snapshot. */
  readonly onDidChange: vscode.Event<void>;
  isProbing(uri: vscode.Uri): boolean;
  /** The container as last published (a `ContainerSnapshot`: counts per container instance). */
  container(uri: vscode.Uri, pod: string, container: string): ContainerSummary | undefined;
  /** The probe as last published (a `ProbeSnapshot`: this instance's counts, `recentAttempts`, `total`). */
  probe(uri: vscode.Uri, pod: string, container: string, type: ProbeType): ProbeSummary | undefined;
  /** The snapshot the manifest's running session last published, if one runs. */
  snapshot(uri: vscode.Uri): SessionSnapshot | undefined;
}
