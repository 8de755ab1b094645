import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { runWithRetries } from '../core/engine/attempt';
import { type Manifest, PROBE_FIELDS, PROBE_TYPES, type ProbeModel, type ProbeType, parseManifest } from '../core/manifest';
import { P01, P02 } from '../core/rules/api/handler';
import { LocalTarget, loadProber } from '../core/targets/local';
import type { ProbeOutcome } from '../core/probers/types';
import { type CliIo, readInput } from './io';
import { minorVersionOption, UsageError } from './usage';

/**
 * `probe-lens probe --spec JSON|@file [--container JSON|@file] [--host H] [--type T]`: one attempt
 * (with the kubelet's retries on errors, P2) of exactly the probe given — exec included, since the
 * user asked for it. Prints `{result, output, error?, durationMs}`; exit 0 when it succeeded.
 */
export async function runProbe(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      spec: { type: 'string' },
      container: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      type: { type: 'string', default: 'readiness' },
      'kubernetes-version': { type: 'string' },
    },
  });
  if (positionals.length > 0) throw new UsageError(`probe takes no FILE (got "${positionals[0]}"); give the probe with --spec`);
  if (values.spec === undefined) throw new UsageError('probe needs --spec with the probe object, e.g. --spec \'{"httpGet":{"path":"/healthz","port":8080}}\'');
  const type = values.type as ProbeType;
  if (!PROBE_TYPES.includes(type)) throw new UsageError(`--type must be one of ${PROBE_TYPES.join(', ')}, not "${values.type}"`);
  const minorVersion = minorVersionOption(values['kubernetes-version']);
  const spec = readObject(values.spec, '--spec', io);
  const container = values.container === undefined ? {} : readObject(values.container, '--container', io);
  const manifest = podFor(spec, container, type, minorVersion);
  const model = manifest.documents[0]?.podSpecs[0]?.containers[0];
  const probe = model?.probe(type);
  if (!model || !probe) throw new UsageError('--spec: not a probe object');
  refuseHandlerless(probe, type, minorVersion);

  const target = new LocalTarget({ host: values.host as string, portMap: new Map(), allowExec: true, allowedHosts: 'any', minorVersion, baseEnv: process.env });
  // Loaded before the clock starts: durationMs is the attempt's, not the module's (~100 ms for HTTP).
  if (probe.effective.handler) await loadProber(probe.effective.handler.type);
  const began = performance.now();
  const request = { pod: { name: 'probe', namespace: 'default', uid: 'probe' }, podSpec: model.pod, container: model, type, probe: probe.effective, containerId: 'local://probe', startedAt: 0, instance: 0 };
  const outcome = await new Promise<ProbeOutcome>((resolve) => runWithRetries((settle) => target.attempt(request, settle), resolve));
  const durationMs = Math.round(performance.now() - began);
  target.dispose();
  io.stdout(`${JSON.stringify({ result: outcome.result, output: outcome.output, ...(outcome.error !== undefined ? { error: outcome.error } : {}), durationMs })}\n`);
  return outcome.error === undefined && (outcome.result === 'success' || outcome.result === 'warning') ? 0 : 1;
}

/** JSON (or YAML) given inline or as `@file`. */
function readObject(text: string, option: string, io: CliIo): Record<string, unknown> {
  const fromFile = text.startsWith('@');
  const source = fromFile ? readInput(text.slice(1), io, `${option} file `) : text;
  const parsed = parseObjectText(source);
  if (!parsed.ok) throw new UsageError(`${fromFile ? `${option} ${text}` : option}: ${parsed.reason}`);
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${option}: must be a JSON object`);
  return value as Record<string, unknown>;
}

type ParsedText = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

/**
 * Read as YAML, which takes JSON as it is and also a flow mapping such as `{httpGet: {port: 80}}`
 * (and refuses duplicate keys, as the API server does). When that fails, text that opens like
 * JSON is reported in JSON's words: YAML's would describe a language the user did not write.
 */
function parseObjectText(source: string): ParsedText {
  try {
    return { ok: true, value: parse(source, { maxAliasCount: 100 }) };
  } catch (yamlError) {
    const yamlText = (yamlError as Error).message.split('\n')[0]?.replace(/:$/, '');
    if (!/^\s*[{[]/.test(source)) return { ok: false, reason: `not valid YAML: ${yamlText}` };
    try {
      JSON.parse(source);
    } catch (jsonError) {
      return { ok: false, reason: `not valid JSON: ${jsonErrorText((jsonError as Error).message, source)}` };
    }
    // Well-formed JSON that YAML still refuses: a duplicate key.
    return { ok: false, reason: `not valid JSON: ${yamlText}` };
  }
}

/** node's JSON.parse text, with the line and column of its position (node 22 adds them itself). */
function jsonErrorText(message: string, source: string): string {
  const position = /at position (\d+)$/.exec(message)?.[1];
  if (position === undefined) return message;
  const before = source.slice(0, Number(position));
  return `${message} (line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')})`;
}

/**
 * P01, P02: the API server refuses a probe with no handler or with two, and the kubelet would
 * never see it; which one to run (if any) would be a guess, so the probe is refused in the API
 * server's words.
 */
function refuseHandlerless(probe: ProbeModel, type: ProbeType, minorVersion: number): void {
  const issues = [...P01.check(probe, { minorVersion }), ...P02.check(probe, { minorVersion })];
  if (issues.length > 0) throw new UsageError(issues.map((issue) => `--spec: ${relativeToOption(issue.message, PROBE_FIELDS[type])}`).join('\n'));
}

/**
 * The probe inside a one-container Pod, decoded exactly as a manifest would be: a misspelled
 * field or a wrong type is bad input, reported with the probe-relative path.
 */
function podFor(spec: Record<string, unknown>, container: Record<string, unknown>, type: ProbeType, minorVersion: number): Manifest {
  const field = PROBE_FIELDS[type];
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probe' }, spec: { containers: [{ name: 'probe', ...container, [field]: spec }] } };
  const manifest = parseManifest(JSON.stringify(pod), { minorVersion });
  const issues = manifest.documents[0]?.podSpecs[0]?.containers[0]?.decodeIssues ?? [];
  if (issues.length > 0) {
    const option = (path: string) => (path.includes(`.${field}`) ? '--spec' : '--container');
    throw new UsageError(issues.map((i) => `${option(i.path)}: ${relativeToOption(i.message, field)}`).join('\n'));
  }
  return manifest;
}

/** A message about the one-container Pod, with paths relative to what `--spec` or `--container` gave. */
function relativeToOption(message: string, field: string): string {
  return message.replaceAll(`spec.containers[0].${field}.`, '').replaceAll('spec.containers[0].', '').replaceAll(`spec.containers.${field}.`, '');
}
