import { runCheck } from './check';
import { runExplain } from './explain';
import { runRecommend } from './recommend';
import { runReplay } from './replay';
import { runScenario } from './scenario';
import { type CliIo, INTERNAL_ERROR_EXIT, internalErrorText, processIo } from './io';
import { runProbe } from './probe';
import { runRules } from './rules';
import { runRun } from './run';
import { runSimulate } from './simulate';
import { COMMAND_USAGE } from './commandUsage';
import { USAGE, UsageError } from './usage';

declare const PROBE_LENS_VERSION: string | undefined;
const VERSION = typeof PROBE_LENS_VERSION === 'string' ? PROBE_LENS_VERSION : '0.0.0-dev';

type Command = (argv: readonly string[], io: CliIo) => number | Promise<number>;

const COMMANDS: Readonly<Record<string, Command>> = {
  check: runCheck,
  rules: runRules,
  probe: runProbe,
  simulate: runSimulate,
  run: runRun,
  explain: runExplain,
  recommend: runRecommend,
  scenario: runScenario,
  replay: runReplay,
};

/** Runs one command line; resolves with the exit code. Usage errors are exit 2 with a message on stderr. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  // No command is bad usage: stderr, as for every other (design §3: nothing on stdout).
  if (command === undefined) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  if (command === '--version') {
    io.stdout(`${io.version}\n`);
    return 0;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (run && (rest.includes('--help') || rest.includes('-h'))) {
    io.stdout(`${COMMAND_USAGE[command] ?? USAGE}\n`);
    return 0;
  }
  try {
    if (!run) throw new UsageError(`unknown command "${command}"`);
    return await run(rest, io);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.stderr(`probe-lens: ${(error as { message: string }).message}\n${error instanceof UsageError && run ? '' : `\n${USAGE}\n`}`);
      return 2;
    }
    throw error;
  }
}

/** node:util parseArgs rejects unknown options with these codes. */
function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

if (require.main === module) {
  const io = processIo(VERSION);
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      io.stderr(`probe-lens: ${internalErrorText(error)}\n`);
      process.exitCode = INTERNAL_ERROR_EXIT;
    },
  );
}
