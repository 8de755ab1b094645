/**
 * Whether a debug session holds its program, read from the Debug Adapter Protocol messages that
 * pass between VS Code and the adapter. A `stopped` event stops a thread (a breakpoint, a step's
 * end, an exception, `debugger;`); a `continued` event resumes it — but the protocol does not
 * require one after a request that resumes (`continue`, `next`, `stepIn` …), so a successful
 * response to such a request resumes too. The program is held while any thread is stopped.
 * No `vscode` here: the messages are plain JSON.
 */

/** DAP requests after whose success the program runs (until the next `stopped`). */
const RESUMING_REQUESTS = new Set(['continue', 'next', 'stepIn', 'stepOut', 'stepBack', 'reverseContinue', 'goto']);

/** Held or let go: what a message changed, if anything. */
export type HoldChange = 'paused' | 'continued' | undefined;

interface DapMessage {
  readonly type?: unknown;
  readonly seq?: unknown;
  readonly event?: unknown;
  readonly command?: unknown;
  readonly request_seq?: unknown;
  readonly success?: unknown;
  readonly body?: { readonly threadId?: unknown; readonly allThreadsStopped?: unknown; readonly allThreadsContinued?: unknown } | undefined;
  readonly arguments?: { readonly threadId?: unknown; readonly singleThread?: unknown } | undefined;
}

/** One debug session's stopped threads, followed message by message. */
export class ThreadStops {
  /** Thread ids stopped now; `ALL` when the adapter said every thread stopped without naming them. */
  private readonly stopped = new Set<number | typeof ALL>();
  /** Resuming requests awaiting their response: seq → the thread named, and whether it resumes every thread. */
  private readonly resuming = new Map<number, { readonly thread: number | undefined; readonly all: boolean }>();

  get isHeld(): boolean {
    return this.stopped.size > 0;
  }

  /** VS Code sent the adapter a message (a request). */
  toAdapter(message: unknown): HoldChange {
    const m = message as DapMessage;
    if (m?.type !== 'request' || typeof m.command !== 'string' || !RESUMING_REQUESTS.has(m.command) || typeof m.seq !== 'number') return undefined;
    const thread = m.arguments?.threadId;
    // DAP: without `singleThread`, a step or continue resumes every thread.
    this.resuming.set(m.seq, { thread: typeof thread === 'number' ? thread : undefined, all: m.arguments?.singleThread !== true });
    return undefined;
  }

  /** The adapter sent VS Code a message (an event or a response). */
  fromAdapter(message: unknown): HoldChange {
    const m = message as DapMessage;
    const wasHeld = this.isHeld;
    if (m?.type === 'event') this.onEvent(m);
    else if (m?.type === 'response' && typeof m.request_seq === 'number') this.onResponse(m);
    return changeOf(wasHeld, this.isHeld);
  }

  /** The session ended (terminated, the adapter exited): nothing is held any more. */
  ended(): HoldChange {
    const wasHeld = this.isHeld;
    this.stopped.clear();
    this.resuming.clear();
    return changeOf(wasHeld, false);
  }

  private onEvent(m: DapMessage): void {
    const thread = m.body?.threadId;
    switch (m.event) {
      case 'stopped':
        this.stopped.add(typeof thread === 'number' && m.body?.allThreadsStopped !== true ? thread : ALL);
        return;
      case 'continued':
        // DAP: `allThreadsContinued` omitted or false means only `threadId` continued.
        if (m.body?.allThreadsContinued === true || typeof thread !== 'number') this.stopped.clear();
        else this.resume(thread);
        return;
      case 'terminated':
      case 'exited':
        this.stopped.clear();
        return;
    }
  }

  private onResponse(m: DapMessage): void {
    const seq = m.request_seq as number;
    const request = this.resuming.get(seq);
    if (request === undefined) return;
    this.resuming.delete(seq);
    if (m.success !== true) return;
    // A `continue` response may say only its thread went on (`allThreadsContinued: false`).
    const all = request.all && !(m.command === 'continue' && m.body?.allThreadsContinued === false);
    if (all || request.thread === undefined) this.stopped.clear();
    else this.resume(request.thread);
  }

  private resume(thread: number): void {
    this.stopped.delete(thread);
    // Every thread was stopped at once, unnamed: one of them going on means the program runs.
    this.stopped.delete(ALL);
  }
}

const ALL = 'all' as const;

function changeOf(wasHeld: boolean, isHeld: boolean): HoldChange {
  if (wasHeld === isHeld) return undefined;
  return isHeld ? 'paused' : 'continued';
}
