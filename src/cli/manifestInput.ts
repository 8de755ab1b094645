import { type Manifest, parseManifest } from '../core/manifest';
import { checkManifest } from '../core/rules/run';
import { type CliIo, readInput } from './io';
import { UsageError } from './usage';

/**
 * A manifest to run: YAML that cannot be read is bad input (exit 2); what the API server would
 * reject is run all the same, after a note on stderr, since seeing it run is often the point.
 */
export function loadRunnableManifest(file: string, minorVersion: number, io: CliIo): Manifest {
  const text = readInput(file, io);
  const manifest = parseManifest(text, { minorVersion });
  const findings = checkManifest(manifest, { file, context: { minorVersion } });
  const broken = findings.find((f) => f.rule === 'Y01' || f.rule === 'Y02');
  if (broken) throw new UsageError(`${file}:${broken.range.start.line + 1}:${broken.range.start.character + 1}: ${broken.message}`);
  const rejected = findings.filter((f) => f.severity === 'error').length;
  if (rejected > 0) io.stderr(`probe-lens: note: ${file} has ${rejected} error${rejected === 1 ? '' : 's'} the API server or kubelet would not accept ('probe-lens check ${file}'); running it as written\n`);
  if (!manifest.documents.some((d) => d.podSpecs.some((p) => p.containers.some((c) => c.probes.length > 0)))) {
    throw new UsageError(`${file}: no container with a probe to run (Pod, Deployment, StatefulSet, DaemonSet, Job, CronJob, … with livenessProbe, readinessProbe or startupProbe)`);
  }
  return manifest;
}
