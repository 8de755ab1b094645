/**
 * How a shell reads its own argv, for exec probes that run one (docs/spec/validation-rules.md §D 19–20).
 * POSIX `sh -c [options] command_string [command_name [argument…]]`: after `-c`, further option
 * clusters (`-e`, `-x`, `+e`, `-o pipefail`, bash's `-O extglob` and `--long` options) are
 * still options; the first operand is the script, the next is `$0`, then `$1`… So
 * `["/bin/sh", "-c", "-e", "script"]` runs `script` with `-e` set (dash and bash agree).
 */

const SHELLS = new Set(['sh', 'bash', 'dash', 'ash', 'zsh', 'ksh', 'mksh', 'hush']);
/** Windows shells: a different language altogether; only recognised so L19 leaves them alone. */
const OTHER_SHELLS = new Set(['cmd', 'cmd.exe', 'powershell', 'pwsh']);
/** bash long options that take the next argument. */
const LONG_OPTIONS_WITH_ARGUMENT = new Set(['--rcfile', '--init-file']);

/** True when argv[0] (or `busybox sh`) is a shell, of any kind. */
export function isShellProgram(argv: readonly string[]): boolean {
  const program = baseName(argv[0]);
  return SHELLS.has(program) || OTHER_SHELLS.has(program) || (program === 'busybox' && SHELLS.has(argv[1] ?? ''));
}

/**
 * Where a POSIX-style shell finds its script in its argv: the first operand after its options,
 * when `-c` is among them. Undefined when argv[0] is not such a shell, or it runs no `-c` script.
 */
export function shellScriptIndex(argv: readonly string[]): number | undefined {
  const program = baseName(argv[0]);
  let i = 1;
  if (program === 'busybox') {
    if (!SHELLS.has(argv[1] ?? '')) return undefined;
    i = 2;
  } else if (!SHELLS.has(program)) return undefined;
  let commandString = false;
  for (; i < argv.length; i++) {
    const argument = argv[i] as string;
    if (argument === '--' || argument === '-') {
      i++;
      break;
    }
    if (/^--[a-z-]+$/.test(argument)) {
      if (LONG_OPTIONS_WITH_ARGUMENT.has(argument)) i++;
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(argument)) break;
    if (argument.startsWith('-') && argument.includes('c')) commandString = true;
    // `-o name` / `-O name`: the option's name is the next argument.
    i += (argument.match(/[oO]/g) ?? []).length;
  }
  return commandString && i < argv.length ? i : undefined;
}

/** A script that reads its positional parameters means the arguments after it. */
export function usesPositionalParameters(script: string): boolean {
  return /\$(?:[0-9@*#]|\{[0-9@*#])/.test(script);
}

const SHELL_OPERATOR = /^(?:\|\||\||&&|;|>>?|<|2>&1|&)$/;

/**
 * One argv entry as a word of a shell script, meaning what its author meant: shell operators
 * stay operators (`|` alone was written to be one), words that are only expansions and globs
 * (`$HOME/ready`, `/tmp/*.ready`) stay as they are so the shell expands them, expansions among
 * spaces go in double quotes, and anything else holding a character the shell would read
 * (`ok|ready`, `%s\n`, `all good`) in single quotes, so it stays one literal word.
 */
export function shellWord(argument: string): string {
  if (SHELL_OPERATOR.test(argument) || /^[^\s'"\\|&;<>()#]+$/.test(argument)) return argument;
  if (/[$`]/.test(argument) && !/["\\]/.test(argument)) return `"${argument}"`;
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}

function baseName(program: string | undefined): string {
  return program?.split('/').pop() ?? '';
}
