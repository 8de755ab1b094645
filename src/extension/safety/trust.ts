/**
 * Why probing is refused, or `undefined` when it may run. Probes reach the network and exec
 * probes run commands, both chosen by the workspace's files: an untrusted workspace gets
 * validation only (`capabilities.untrustedWorkspaces: limited`). Simulations run nothing and are
 * not asked. The trust flag is a parameter so the decision is tested without toggling trust.
 */
export function probingRefusal(trusted: boolean): string | undefined {
  if (trusted) return undefined;
  return 'Probe Lens probes only in a trusted workspace: probes reach the network and exec probes run commands named in its files. Trust this workspace to probe (validation and simulations work either way).';
}
