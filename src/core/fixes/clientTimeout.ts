import type { ProbeModel } from '../manifest';
import { CLIENT_TIMEOUT_OPTION, clientsWithoutTimeout, type NetworkClient } from '../rules/runtime/exec';
import { shellScriptIndex } from '../rules/runtime/shellInvocation';
import type { Fix } from '../rules/types';
import type { TextEdit } from '../text/edits';
import { type Range, shiftRange } from '../text/range';
import { probeFieldEdit } from './probeField';
import { lineBreakOf, splitLines } from '../text/lines';
import { writtenInProbe } from '../manifest/written';
import { insertAt, insertIntoSequenceAfter, textOf, yamlScalar } from '../manifest/yamlText';

/**
 * L21's fix (docs/spec/validation-rules.md §D.21; docs/spec/kubelet-probes.md E4): give curl (`--max-time`) and wget
 * (`-T`) a timeout of their own, shorter than the probe's, so a slow answer ends as the client's
 * own clear error instead of the kubelet's "command timed out".
 *
 * L21 only fires at timeoutSeconds 1, and no whole number of seconds is under 1 (busybox wget
 * takes whole seconds only; curl and GNU wget would take 0.5, busybox would reject it, so every
 * attempt would fail). So the fix gives the client 1 s and raises timeoutSeconds to 2, unless
 * that would make timeoutSeconds longer than periodSeconds (L12): then it offers nothing.
 */
const CLIENT_TIMEOUT_SECONDS = 1;
const PROBE_TIMEOUT_SECONDS = CLIENT_TIMEOUT_SECONDS + 1;

/**
 * Command words that run a client in a script: `curl`, `/usr/bin/wget`, at the start or after a
 * separator; a quote counts as one, so the same words are found in the scalar's written text.
 */
const CLIENT_WORD = /(^|[\s;&|(`"'])((?:[^\s;&|(`"']*\/)?(curl|wget))(?=[\s"']|$)/g;

/**
 * The fix for an exec probe whose curl or wget has no timeout of its own, or `undefined` when
 * there is nothing to fix or no safe edit. Model positions are chunk-relative; `lineOffset`
 * places them in `text`, the whole file, and the edits are in file positions.
 */
export function clientTimeoutFix(probe: ProbeModel, text: string, lineOffset = 0): Fix | undefined {
  const handler = probe.effective.handler;
  if (handler?.type !== 'exec' || probe.effective.timeoutSeconds !== 1 || probe.effective.periodSeconds < PROBE_TIMEOUT_SECONDS) return undefined;
  const clients = clientsWithoutTimeout(handler.command);
  const commandAt = writtenInProbe(probe, 'exec.command');
  if (clients.length === 0 || !commandAt) return undefined;
  const lines = splitLines(text);
  const place = (range: Range) => shiftRange(range, lineOffset);
  const scriptIndex = shellScriptIndex(handler.command);
  const commandEdits =
    scriptIndex !== undefined
      ? scriptEdits(lines, place, probe, scriptIndex, handler.command[scriptIndex] as string, clients)
      : argvEdits(lines, lineBreakOf(text), place, probe, place(commandAt.value), handler.command, clients);
  const timeoutEdit = probeFieldEdit({ lines, lineBreak: lineBreakOf(text), place }, probe, 'timeoutSeconds', PROBE_TIMEOUT_SECONDS);
  if (!commandEdits || commandEdits.length === 0 || !timeoutEdit) return undefined;
  // Named by what the edits do: a "wget" only inside a URL gets nothing.
  const edited = clients.filter((client) => commandEdits.some((e) => e.client === client));
  const options = edited.map((client) => `${client} ${CLIENT_TIMEOUT_OPTION[client]} ${CLIENT_TIMEOUT_SECONDS}`).join(', ');
  return { title: `Add ${options} and raise timeoutSeconds to ${PROBE_TIMEOUT_SECONDS}`, edits: [...commandEdits.map((e) => e.edit), timeoutEdit] };
}

/** An edit that gives one client its timeout. */
interface ClientEdit {
  readonly client: NetworkClient;
  readonly edit: TextEdit;
}

/** In argv, the option and its value as two new items right after each client's own item. */
function argvEdits(
  lines: readonly string[],
  lineBreak: string,
  place: (range: Range) => Range,
  probe: ProbeModel,
  command: Range,
  argv: readonly string[],
  clients: readonly NetworkClient[],
): ClientEdit[] | undefined {
  const edits: ClientEdit[] = [];
  for (const [index, argument] of argv.entries()) {
    const client = clients.find((c) => baseName(argument) === c);
    if (!client) continue;
    const item = writtenInProbe(probe, `exec.command[${index}]`);
    if (!item) return undefined;
    // `"1"` stays quoted: a bare 1 is a number, which an argv of strings refuses to decode.
    const quote = (word: string) => (item.quoted ? JSON.stringify(word) : yamlScalar(word));
    const words = [quote(CLIENT_TIMEOUT_OPTION[client]), JSON.stringify(String(CLIENT_TIMEOUT_SECONDS))];
    const dashOffset = place(item.value).start.character - command.start.character;
    const blockItems = words.map((word) => [`-${' '.repeat(Math.max(1, dashOffset - 1))}${word}`]);
    edits.push({ client, edit: insertIntoSequenceAfter(lines, lineBreak, command, place(item.value), words, blockItems) });
  }
  return edits;
}

/**
 * In a `sh -c` script, the option right after each client's name, inside the script's own text:
 * ` --max-time 1` needs no quoting in a plain, quoted or block scalar. The script is found in
 * the text by the same words as in its value; if they differ (escapes), nothing is offered.
 */
function scriptEdits(
  lines: readonly string[],
  place: (range: Range) => Range,
  probe: ProbeModel,
  index: number,
  script: string,
  clients: readonly NetworkClient[],
): ClientEdit[] | undefined {
  const item = writtenInProbe(probe, `exec.command[${index}]`);
  if (!item) return undefined;
  const written = textOf(lines, place(item.value));
  const inValue = clientWords(script);
  const inText = clientWords(written.text);
  if (inValue.length !== inText.length || inValue.some((word, i) => word.client !== inText[i]?.client)) return undefined;
  return inText
    .filter((word) => clients.includes(word.client))
    .map((word) => ({ client: word.client, edit: insertAt(written.positionAt(word.end), ` ${CLIENT_TIMEOUT_OPTION[word.client]} ${CLIENT_TIMEOUT_SECONDS}`) }));
}

function clientWords(script: string): { client: NetworkClient; end: number }[] {
  return [...script.matchAll(CLIENT_WORD)].map((m) => ({ client: m[3] as NetworkClient, end: (m.index ?? 0) + (m[1] ?? '').length + (m[2] ?? '').length }));
}

function baseName(program: string): string {
  return program.split('/').pop() ?? '';
}
