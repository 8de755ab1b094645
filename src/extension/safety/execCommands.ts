import { createHash } from 'node:crypto';
import type { DesiredPod } from '../../core/engine/manager';
import { expandCommand } from '../../core/k8s/expand';
import { PROBING_CONTAINERS, type ProbeType } from '../../core/manifest';

/** One exec probe of a session's pods, with its command as the kubelet would run it. */
export interface ExecCommand {
  readonly pod: string;
  readonly container: string;
  readonly probe: ProbeType;
  /** After the kubelet's `$(VAR)` expansion (E1): what would really run. */
  readonly argv: readonly string[];
}

/** Every exec probe that would get a worker: probing containers only (W1), the effective handler (P1). */
export function execCommandsOf(pods: readonly DesiredPod[]): ExecCommand[] {
  const commands: ExecCommand[] = [];
  for (const pod of pods) {
    for (const container of pod.spec.containers) {
      if (!PROBING_CONTAINERS.includes(container.kind)) continue;
      for (const probe of container.probes) {
        const handler = probe.effective.handler;
        if (handler?.type !== 'exec') continue;
        commands.push({ pod: pod.identity.name, container: container.name, probe: probe.type, argv: expandCommand(handler.command, container.spec.env ?? []) });
      }
    }
  }
  return commands;
}

/** The identity of a command line: its exact argv. */
export function commandKey(argv: readonly string[]): string {
  return JSON.stringify(argv);
}

/** A digest of a set of commands (order and repeats ignored): an edited command changes it. */
export function commandsHash(commands: readonly ExecCommand[]): string {
  const keys = [...new Set(commands.map((c) => commandKey(c.argv)))].sort();
  return createHash('sha256').update(JSON.stringify(keys)).digest('hex').slice(0, 32);
}
