import type { AttemptRequest, ProbeTarget } from '../../core/engine/target';
import { expandCommand } from '../../core/k8s/expand';
import type { ProbeOutcome } from '../../core/probers/types';
import { commandKey } from './execCommands';

/**
 * A local session's target, with exec probes let through one command line at a time: only the
 * commands the user agreed to run reach `permitted` (a local target that may exec); everything
 * else goes to `guarded` (one that reports exec probes as not allowed, and probes HTTP, TCP and
 * gRPC as usual). An edit that changes a command therefore stops it running until the user agrees
 * again, whatever the session's workers do meanwhile.
 */
export class ExecGate implements ProbeTarget {
  private readonly allowed = new Set<string>();

  constructor(
    private readonly permitted: ProbeTarget,
    private readonly guarded: ProbeTarget,
  ) {}

  allow(argv: readonly string[]): void {
    this.allowed.add(commandKey(argv));
  }

  /** `probeLens.exec.probes` turned to `never` mid-session: nothing runs from now on. */
  revokeAll(): void {
    this.allowed.clear();
  }

  isAllowed(argv: readonly string[]): boolean {
    return this.allowed.has(commandKey(argv));
  }

  attempt(request: AttemptRequest, done: (outcome: ProbeOutcome) => void): void {
    const handler = request.probe.handler;
    const runs = handler?.type === 'exec' && this.isAllowed(expandCommand(handler.command, request.container.spec.env ?? []));
    (runs ? this.permitted : this.guarded).attempt(request, done);
  }

  dispose(): void {
    this.permitted.dispose();
    this.guarded.dispose();
  }
}
