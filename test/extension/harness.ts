/**
 * The test API of the suites that run inside the VS Code extension host
 * (test/extension/suite/*.vstest.ts). A suite file calls test() at load time; runner.ts loads
 * every suite file, then runs what they registered, in order, one at a time: the tests share
 * one VS Code window, so they must not overlap.
 */

export interface TestOptions {
  /** A test still running after this long fails (it cannot be stopped, only abandoned). */
  readonly timeoutMs?: number;
}

export interface RegisteredTest {
  readonly name: string;
  readonly file: string;
  readonly fn: () => Promise<void> | void;
  readonly timeoutMs: number;
}

/** Long enough for a cold extension host to activate the extension and publish diagnostics. */
export const DEFAULT_TEST_TIMEOUT_MS = 20_000;

const registered: RegisteredTest[] = [];
let currentFile = '<unknown>';

export function test(name: string, fn: () => Promise<void> | void, options: TestOptions = {}): void {
  registered.push({ name, file: currentFile, fn, timeoutMs: options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS });
}

/** Called by the runner around each suite file it loads, so results can name their file. */
export function loadingSuite(file: string): void {
  currentFile = file;
}

export function registeredTests(): readonly RegisteredTest[] {
  return registered;
}

export type Truthy<T> = Exclude<T, false | 0 | 0n | '' | null | undefined>;

/**
 * Polls `predicate` every 50 ms until it returns something truthy, and returns that; after
 * `timeoutMs` it throws, naming `what` it was waiting for. VS Code
 * publishes diagnostics, activates extensions and applies settings asynchronously, and has no
 * event for "the extension is done reacting", so tests wait for the outcome itself.
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  timeoutMs = 10_000,
  what: string | (() => string) = 'the condition',
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value as Truthy<T>;
    if (Date.now() >= deadline) {
      // A function describes the state at the deadline: what was seen, not only what was awaited.
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    }
    await sleep(50);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Rejects after `ms` unless `work` settles first; the timer never outlives the test. */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
