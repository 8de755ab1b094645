import { PROBE_TYPES } from '../manifest';
import { type ContainerScript, DEFAULT_SCENARIO, type ProbeScript, type Scenario } from './scenario';

/** Comments to write with a scenario: on top, and above a container's script. */
export interface ScenarioComments {
  readonly top?: readonly string[];
  readonly containers?: Readonly<Record<string, readonly string[]>>;
}

/**
 * A scenario as docs/design.md §3 writes it, which `parseScenario` reads back to the same scenario.
 * Timed probe outcomes go one step a line, so a long recording's diff stays readable; comments
 * (`#`) carry what the numbers cannot say.
 */
export function scenarioYaml(scenario: Scenario, comments: ScenarioComments = {}): string {
  const lines: string[] = [...commentLines(comments.top ?? [], '')];
  const names = Object.keys(scenario.containers);
  lines.push(names.length === 0 ? 'containers: {}' : 'containers:');
  for (const name of names) {
    lines.push(...commentLines(comments.containers?.[name] ?? [], '  '));
    lines.push(`  ${key(name)}:`, ...containerLines(scenario.containers[name] as ContainerScript));
  }
  if (scenario.deleteAfter !== undefined) lines.push('pod:', `  deleteAfter: ${number(scenario.deleteAfter)}`);
  if (scenario.kubeletStartedAgo !== DEFAULT_SCENARIO.kubeletStartedAgo) lines.push('kubelet:', `  startedAgo: ${number(scenario.kubeletStartedAgo)}`);
  return `${lines.join('\n')}\n`;
}

function containerLines(script: ContainerScript): string[] {
  const lines = [`    readyAfter: ${number(script.readyAfter)}`];
  if (script.failAfter !== undefined) lines.push(`    failAfter: ${number(script.failAfter)}`);
  if (script.exitAfter !== undefined) lines.push(`    exitAfter: ${number(script.exitAfter)}`);
  if (script.exitCode !== undefined) lines.push(`    exitCode: ${number(script.exitCode)}`);
  if (script.stopAfter !== undefined) lines.push(`    stopAfter: ${number(script.stopAfter)}`);
  lines.push(`    latency: ${number(script.latency)}`);
  const probes = PROBE_TYPES.filter((type) => script.probes[type] !== undefined);
  if (probes.length > 0) lines.push('    probes:');
  for (const type of probes) lines.push(...probeLines(type, script.probes[type] as ProbeScript));
  return lines;
}

function probeLines(type: string, script: ProbeScript): string[] {
  if (script.kind === 'attempts') return [`      ${type}: {attempts: [${script.outcomes.join(', ')}]}`];
  if (script.steps.length === 0) return [`      ${type}: []`];
  return [`      ${type}:`, ...script.steps.map((step) => `        - {from: ${number(step.from)}, outcome: ${step.outcome}}`)];
}

function commentLines(texts: readonly string[], indent: string): string[] {
  return texts.flatMap((text) => text.split(/\r?\n/)).map((line) => `${indent}# ${line}`.trimEnd());
}

/** Plain when YAML reads it back as the same string; quoted (JSON is YAML) otherwise. */
function key(name: string): string {
  return /^[A-Za-z_][-A-Za-z0-9_.]*$/.test(name) && !/^(true|false|null|y|n|yes|no|on|off)$/i.test(name) ? name : JSON.stringify(name);
}

/** Decimal notation always: YAML reads `1e-7` as a string in some schemas. */
function number(value: number): string {
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(6).replace(/\.?0+$/, '') : text;
}
