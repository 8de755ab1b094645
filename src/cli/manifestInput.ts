import type { Manifest } from '../core/manifest';
import { playableManifest } from '../core/check';
import { type CliIo, readInput } from './io';
import { UsageError } from './usage';

/**
 * A manifest to run: YAML that cannot be read is bad input (exit 2); what the API server would
 * reject is run all the same, after a note on stderr, since seeing it run is often the point.
 */
export function loadRunnableManifest(file: string, minorVersion: number, io: CliIo): Manifest {
  const manifest = requirePlayable(file, readInput(file, io), minorVersion, 'to run (Pod, Deployment, StatefulSet, DaemonSet, Job, CronJob, … with livenessProbe, readinessProbe or startupProbe)');
  const rejected = manifest.findings.filter((f) => f.severity === 'error').length;
  if (rejected > 0) io.stderr(`probe-lens: note: ${file} has ${rejected} error${rejected === 1 ? '' : 's'} the API server or kubelet would not accept ('probe-lens check ${file}'); running it as written\n`);
  return manifest.manifest;
}

/** `playableManifest`, or the usage error that says why not: `no container with a probe ${purpose}`. */
export function requirePlayable(file: string, text: string, minorVersion: number, purpose: string): Extract<ReturnType<typeof playableManifest>, { ok: true }> {
  const playable = playableManifest(text, file, minorVersion);
  if (playable.ok) return playable;
  const broken = playable.unreadable;
  if (broken) throw new UsageError(`${file}:${broken.range.start.line + 1}:${broken.range.start.character + 1}: ${broken.message}`);
  throw new UsageError(`${file}: no container with a probe ${purpose}`);
}
