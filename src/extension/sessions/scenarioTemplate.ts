/**
 * A new scenario file for a manifest's containers (docs/design.md §3), every knob shown and the
 * optional ones commented out, so a user edits rather than looks up the format. Pure.
 */
export function scenarioTemplate(manifestName: string, containers: readonly string[]): string {
  const names = containers.length > 0 ? [...new Set(containers)] : ['web'];
  const lines = [
    `# How the app of ${manifestName} behaves in a Probe Lens simulation, per container, in seconds`,
    '# since *that* container started (a restarted container replays it from 0). A container not',
    '# listed here is healthy at once. Outcomes: success, failure, warning.',
    'containers:',
  ];
  for (const [i, name] of names.entries()) {
    lines.push(
      `  ${yamlKey(name)}:`,
      `    readyAfter: ${i === 0 ? 20 : 0}          # probes fail (connection refused) before this`,
      '    # failAfter: 300        # from here on the app hangs: probes time out',
      '    # exitAfter: 900        # the process exits by itself (exit code 1)',
      '    latency: 0.05           # seconds each probe takes; above timeoutSeconds it is a timeout',
      '    # probes:               # per probe: outcome from a time on, or one per attempt (the last repeats)',
      '    #   readiness: [{from: 0, outcome: failure}, {from: 30, outcome: success}]',
      '    #   liveness: {attempts: [success, failure, failure, success]}',
    );
  }
  lines.push(
    '# pod:',
    '#   deleteAfter: 1200       # deletion: containers get the grace period, then are killed',
    'kubelet:',
    '  startedAgo: 3600          # less than a probe\'s period turns on start-up jitter',
    '',
  );
  return lines.join('\n');
}

/** `web.yaml` → `web.scenario.yaml`. */
export function scenarioFileName(manifestName: string): string {
  return `${manifestName.replace(/\.(ya?ml|json)$/i, '')}.scenario.yaml`;
}

export const SCENARIO_FILE = /\.scenario\.(ya?ml|json)$/i;

function yamlKey(name: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) ? name : JSON.stringify(name);
}
