import * as vscode from 'vscode';
import { RealClock } from '../../core/base/clock';
import type { DesiredPod } from '../../core/engine/manager';
import { KUBELET_UP_MS } from '../../core/engine/podRuntime';
import { isLoopback } from '../../core/k8s/hosts';
import { LocalTarget, type LocalTargetOptions, ObservedProcesses, type PortRefusal } from '../../core/targets/local';
import { ExecGate } from '../safety/execGate';
import { type ProbeLensSettings, readSettings } from '../base/settings';
import { ProbingSession, type SessionOptions } from './probingSession';

export type HostCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The pod IP stands for `probeLens.local.host`: the loopback, or a host the settings allow. */
export function checkLocalHost(settings: ProbeLensSettings): HostCheck {
  const host = settings.localHost;
  if (isLoopback(host) || settings.allowedHosts.has(host)) return { ok: true };
  return { ok: false, reason: `probeLens.local.host is ${host}, not the loopback: add "${host}" to probeLens.local.allowedHosts to probe it` };
}

/** The target options a local session or a one-off probe uses, from the settings. */
export function localTargetOptions(settings: ProbeLensSettings, allowExec: boolean): LocalTargetOptions {
  return { host: settings.localHost, portMap: settings.portMap, allowExec, allowedHosts: settings.allowedHosts, minorVersion: settings.minorVersion, baseEnv: process.env };
}

export interface LocalSession {
  readonly session: ProbingSession;
  /** Which exec command lines may run; the consent guard opens it. */
  readonly gate: ExecGate;
}

/**
 * A local session: the real clock, your processes on this machine (observed, never started or
 * killed: kills and restarts are the kubelet's decisions, reported), probes through an exec gate
 * that is closed until the user agrees. Not yet synced: the caller syncs it with its first snapshot.
 * `probeLens.local.portMap` is followed while it runs: a port mapped meanwhile (*Map Port…*) is
 * probed from the next attempt on. `onNothingListening`: see `LocalTargetOptions`.
 */
export function createLocalSession(options: Omit<SessionOptions, 'kind'>, settings: ProbeLensSettings, onNothingListening?: (refusal: PortRefusal) => void): LocalSession {
  // One live map for both targets: the local target looks a port up on every attempt.
  const portMap = new Map(settings.portMap);
  const targetOptions = (allowExec: boolean): LocalTargetOptions => ({ ...localTargetOptions(settings, allowExec), portMap, ...(onNothingListening ? { onNothingListening } : {}) });
  const gate = new ExecGate(new LocalTarget(targetOptions(true)), new LocalTarget(targetOptions(false)));
  const clock = new RealClock();
  const epoch = clock.now();
  const session = new ProbingSession(
    { ...options, kind: 'local' },
    { clock, epoch, kubeletStartedAt: epoch - KUBELET_UP_MS, random: Math.random, target: gate, processes: new ObservedProcesses(), idScheme: 'local', owned: [] },
  );
  session.own(followPortMap(options.uri, portMap));
  return { session, gate };
}

/** Keeps `portMap` equal to the manifest's `probeLens.local.portMap` as the settings change. */
function followPortMap(manifest: vscode.Uri, portMap: Map<number, number>): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((change) => {
    if (!change.affectsConfiguration('probeLens.local.portMap', manifest)) return;
    portMap.clear();
    for (const [container, local] of readSettings(manifest).portMap) portMap.set(container, local);
  });
}

/** `web`, `web, api`, `3 pods`: for messages. */
export function podsTitle(pods: readonly DesiredPod[]): string {
  if (pods.length > 3) return `${pods.length} pods`;
  return pods.map((p) => p.identity.name).join(', ');
}
