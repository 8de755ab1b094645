import type * as vscode from 'vscode';
import type { SessionSnapshot } from '../../core/session/snapshot';

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
  /** The snapshot the manifest's running session last published, if one runs: its pods, containers (counts per container instance) and probes. */
  snapshot(uri: vscode.Uri): SessionSnapshot | undefined;
}
