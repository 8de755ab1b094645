import { parse } from 'yaml';
import { PROBE_TYPES, type ProbeType } from '../manifest';
import { closestNameHint } from '../text/closestName';
import { type ContainerScript, DEFAULT_SCENARIO, type ProbeScript, type Scenario, type ScriptedOutcome } from './scenario';

export type ScenarioResult = { readonly ok: true; readonly scenario: Scenario } | { readonly ok: false; readonly error: string };

const OUTCOMES: readonly ScriptedOutcome[] = ['success', 'failure', 'warning'];
const CONTAINER_KEYS = ['readyAfter', 'failAfter', 'exitAfter', 'exitCode', 'stopAfter', 'latency', 'probes'];

class ScenarioError {
  constructor(readonly message: string) {}
}

/** Reads a scenario file (docs/design.md §3). Never throws: a bad file is an error naming the field. */
export function parseScenario(text: string): ScenarioResult {
  let raw: unknown;
  try {
    // A scenario is small: alias expansion is capped well below anything harmful.
    raw = parse(text, { maxAliasCount: 100, version: '1.2' });
  } catch (error) {
    return { ok: false, error: `scenario is not valid YAML: ${(error as Error).message}` };
  }
  try {
    return { ok: true, scenario: readScenario(raw ?? {}) };
  } catch (error) {
    if (error instanceof ScenarioError) return { ok: false, error: error.message };
    throw error;
  }
}

function readScenario(raw: unknown): Scenario {
  const root = object(raw, 'scenario');
  unknownKeys(root, ['containers', 'pod', 'kubelet'], '');
  const containers: Record<string, ContainerScript> = {};
  for (const [name, value] of Object.entries(object(root.containers ?? {}, 'containers'))) containers[name] = readContainer(value, `containers.${name}`);
  const pod = object(root.pod ?? {}, 'pod');
  unknownKeys(pod, ['deleteAfter'], 'pod.');
  const kubelet = object(root.kubelet ?? {}, 'kubelet');
  unknownKeys(kubelet, ['startedAgo'], 'kubelet.');
  const deleteAfter = optionalSeconds(pod.deleteAfter, 'pod.deleteAfter');
  return {
    containers,
    kubeletStartedAgo: optionalSeconds(kubelet.startedAgo, 'kubelet.startedAgo') ?? DEFAULT_SCENARIO.kubeletStartedAgo,
    ...(deleteAfter !== undefined ? { deleteAfter } : {}),
  };
}

function readContainer(raw: unknown, at: string): ContainerScript {
  const fields = object(raw ?? {}, at);
  unknownKeys(fields, CONTAINER_KEYS, `${at}.`);
  const probes: Partial<Record<ProbeType, ProbeScript>> = {};
  const rawProbes = object(fields.probes ?? {}, `${at}.probes`);
  unknownKeys(rawProbes, PROBE_TYPES, `${at}.probes.`);
  for (const type of PROBE_TYPES) if (rawProbes[type] !== undefined) probes[type] = readProbeScript(rawProbes[type], `${at}.probes.${type}`);
  const failAfter = optionalSeconds(fields.failAfter, `${at}.failAfter`);
  const exitAfter = optionalSeconds(fields.exitAfter, `${at}.exitAfter`);
  const exitCode = optionalExitCode(fields.exitCode, `${at}.exitCode`);
  const stopAfter = optionalSeconds(fields.stopAfter, `${at}.stopAfter`);
  return {
    readyAfter: optionalSeconds(fields.readyAfter, `${at}.readyAfter`) ?? 0,
    latency: optionalSeconds(fields.latency, `${at}.latency`) ?? 0,
    probes,
    ...(failAfter !== undefined ? { failAfter } : {}),
    ...(exitAfter !== undefined ? { exitAfter } : {}),
    ...(exitCode !== undefined ? { exitCode } : {}),
    ...(stopAfter !== undefined ? { stopAfter } : {}),
  };
}

function readProbeScript(raw: unknown, at: string): ProbeScript {
  if (Array.isArray(raw)) {
    const steps = raw.map((step, i) => {
      const fields = object(step, `${at}[${i}]`);
      unknownKeys(fields, ['from', 'outcome'], `${at}[${i}].`);
      return { from: optionalSeconds(fields.from, `${at}[${i}].from`) ?? 0, outcome: outcome(fields.outcome, `${at}[${i}].outcome`) };
    });
    return { kind: 'timed', steps: steps.sort((a, b) => a.from - b.from) };
  }
  const fields = object(raw, at);
  unknownKeys(fields, ['attempts'], `${at}.`);
  if (!Array.isArray(fields.attempts) || fields.attempts.length === 0) throw new ScenarioError(`${at}.attempts: must be a non-empty list of outcomes (success, failure, warning)`);
  return { kind: 'attempts', outcomes: fields.attempts.map((o, i) => outcome(o, `${at}.attempts[${i}]`)) };
}

function object(raw: unknown, at: string): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ScenarioError(`${at}: must be a mapping`);
  return raw as Record<string, unknown>;
}

function unknownKeys(fields: Record<string, unknown>, known: readonly string[], prefix: string): void {
  for (const key of Object.keys(fields)) {
    if (!known.includes(key)) throw new ScenarioError(`${prefix}${key}: unknown field (${closestNameHint(key, known)})`);
  }
}

function optionalSeconds(raw: unknown, at: string): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) throw new ScenarioError(`${at}: must be a number of seconds, 0 or more`);
  return raw;
}

/** A process exit status, as a container runtime reports it. */
function optionalExitCode(raw: unknown, at: string): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0 || raw > 255) throw new ScenarioError(`${at}: must be a whole number from 0 to 255`);
  return raw;
}

function outcome(raw: unknown, at: string): ScriptedOutcome {
  if (typeof raw !== 'string' || !OUTCOMES.includes(raw as ScriptedOutcome)) throw new ScenarioError(`${at}: must be one of ${OUTCOMES.join(', ')}`);
  return raw as ScriptedOutcome;
}
