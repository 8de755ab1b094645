import type { ProbeModel } from '../../manifest';
import { probeRange } from '../locate';
import type { Fix, ProbeRule } from '../types';
import { isShellProgram, shellScriptIndex, shellWord, usesPositionalParameters } from './shellInvocation';

/** exec probes run their argv directly, with no shell (docs/spec/validation-rules.md §A.6, §D 19–21; docs/spec/kubelet-probes.md E1). */
const runtime = { scope: 'probe', category: 'runtime' } as const;

/** Shell syntax that means nothing to a program receiving it as an argument. */
const SHELL_SYNTAX: readonly { readonly pattern: RegExp; readonly what: string }[] = [
  { pattern: /^(\|\||\||&&|;|>>?|<|2>&1|&)$/, what: 'a shell operator' },
  { pattern: /\$\(/, what: 'command substitution' },
  { pattern: /`/, what: 'command substitution' },
  { pattern: /\$\{?[A-Za-z_][A-Za-z0-9_]*/, what: 'a shell variable' },
  { pattern: /(^|\s)(\|\||\||&&|;|>|<)(\s|$)/, what: 'a shell operator' },
  { pattern: /^[^\s:]*\/[^\s:]*\*[^\s:]*$/, what: 'a glob' },
];

export const L19: ProbeRule = {
  ...runtime,
  id: 'L19',
  severity: 'error',
  alsoReports: { severity: 'warning', when: 'for shell syntax in one of several arguments, which may be meant literally' },
  title: 'An exec command written like a shell line: a whole line as one argument never runs; pipes, &&, $VAR and globs do nothing.',
  reference: 'validation-rules.md §A.6, §D.19; kubelet-probes.md E1',
  check(probe) {
    const command = execCommand(probe);
    if (!command || command.length === 0 || isShellProgram(command)) return [];
    const path = `${probe.path}.exec.command`;
    const range = probeRange(probe, 'exec.command');
    const fix = wrapInShell(command, range);
    if (command.length === 1 && /\s/.test(command[0] as string)) {
      return [
        {
          path,
          range,
          message: `the whole line "${command[0]}" is a single argument: the runtime looks for a program literally named that, so every attempt fails; split it into a list, or run it with ["sh", "-c", …]`,
          fixes: [fix],
        },
      ];
    }
    const declared = new Set((probe.container.spec.env ?? []).map((e) => e.name));
    for (const argument of command.slice(1)) {
      // `$(NAME)` of a declared env var is Kubernetes' own expansion (E5), done before the command runs.
      const unexpanded = argument.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) => (declared.has(name) ? '' : whole));
      const syntax = SHELL_SYNTAX.find((s) => s.pattern.test(unexpanded));
      if (syntax) {
        return [{ path, range, severity: 'warning', message: `"${argument}" is ${syntax.what}, but exec probes run "${command[0]}" directly, with no shell: it is passed as a literal argument; run it with ["sh", "-c", …]`, fixes: [fix] }];
      }
    }
    return [];
  },
};

export const L20: ProbeRule = {
  ...runtime,
  id: 'L20',
  severity: 'warning',
  title: '`sh -c` followed by several arguments: only the first is the script, the rest become $0, $1, …',
  reference: 'validation-rules.md §D.20',
  check(probe) {
    const command = execCommand(probe);
    const scriptIndex = command && shellScriptIndex(command);
    if (!command || scriptIndex === undefined || scriptIndex >= command.length - 1) return [];
    const script = command[scriptIndex] as string;
    const after = command.slice(scriptIndex + 1);
    // `sh -c 'echo "$1"' probe value` hands the script its arguments on purpose.
    if (usesPositionalParameters(script)) return [];
    const range = probeRange(probe, 'exec.command');
    const joined = [script, ...after.map(shellWord)].join(' ');
    return [
      {
        path: `${probe.path}.exec.command`,
        range,
        message: `only "${script}" is the script; ${after.map((a) => JSON.stringify(a)).join(', ')} become its $0, $1, … and are never run: put the whole command in one string`,
        fixes: [{ title: 'Join the command into one script argument', edits: [{ range, newText: flowList([...command.slice(0, scriptIndex), joined]) }] }],
      },
    ];
  },
};

export const L21: ProbeRule = {
  ...runtime,
  id: 'L21',
  severity: 'info',
  title: 'An exec probe calls curl or wget without its own timeout while timeoutSeconds is 1 s (the default).',
  reference: 'validation-rules.md §D.21; kubelet-probes.md E4',
  check(probe) {
    const command = execCommand(probe);
    if (!command || probe.effective.timeoutSeconds !== 1) return [];
    const [client] = clientsWithoutTimeout(command);
    if (!client) return [];
    const missing = `${client} without ${CLIENT_TIMEOUT_OPTION[client]}`;
    return [
      {
        path: `${probe.path}.exec.command`,
        range: probeRange(probe, 'exec.command'),
        message: `${missing} under a timeoutSeconds of 1 s: a slow answer ends as "command timed out" rather than a clear error; give the client a shorter timeout of its own or raise timeoutSeconds`,
      },
    ];
  },
};

export type NetworkClient = 'curl' | 'wget';

/** The option that bounds a client's whole wait, as L21 names it and its fix adds it. */
export const CLIENT_TIMEOUT_OPTION: Readonly<Record<NetworkClient, string>> = { curl: '--max-time', wget: '-T' };

/**
 * The network clients a command calls without a timeout of their own (curl first). Read on the
 * whole command line, as a shell script or argv alike: one timeout option anywhere counts.
 */
export function clientsWithoutTimeout(command: readonly string[]): NetworkClient[] {
  const line = command.join(' ');
  const missing: NetworkClient[] = [];
  // --connect-timeout bounds only the connection, not a slow answer.
  if (/\bcurl\b/.test(line) && !/(\s--max-time[\s=]|\s-m\s?\d)/.test(line)) missing.push('curl');
  if (/\bwget\b/.test(line) && !/(\s-T\s?\d|\s--timeout[\s=])/.test(line)) missing.push('wget');
  return missing;
}

function execCommand(probe: ProbeModel): readonly string[] | undefined {
  const handler = probe.effective.handler;
  return handler?.type === 'exec' ? handler.command : undefined;
}

function wrapInShell(command: readonly string[], range: ProbeModel['keyRange']): Fix {
  // A lone element is the line as the user meant it; several elements were separate arguments,
  // each kept one word (shell operators among them stay operators).
  const script = command.length === 1 ? (command[0] as string) : command.map(shellWord).join(' ');
  return { title: 'Run it with sh -c', edits: [{ range, newText: flowList(['sh', '-c', script]) }] };
}

/** A YAML flow sequence whose strings are JSON-quoted (JSON strings are valid YAML). */
function flowList(items: readonly string[]): string {
  return `[${items.map((item) => JSON.stringify(item)).join(', ')}]`;
}
