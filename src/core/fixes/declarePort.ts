import { findPortByName } from '../manifest/ports';
import type { ContainerModel, ContainerPort } from '../manifest';
import type { TextEdit } from '../text/edits';
import { comparePositions, type Position, type Range, shiftRange } from '../text/range';
import { lineBreakOf, splitLines } from '../text/lines';
import { writtenInContainer } from '../manifest/written';
import { appendToMap, insertAt, insertIntoSequenceAfter, isFlowAt, linesAfter, prependToMap, yamlScalar } from '../manifest/yamlText';

/**
 * "Declare port `metrics`" for L01 (docs/spec/validation-rules.md §D.1, docs/spec/kubelet-probes.md N2): a named
 * probe port resolves only through the same container's `ports`, so the fix declares it there,
 * with the number the user gives. A containerPort already declared without a name gets the
 * name instead of a second entry for the same port.
 */

export type PortDeclaration = { readonly ok: true; readonly edit: TextEdit } | { readonly ok: false; readonly reason: string };

/** Why a port cannot be declared in this container's text; `undefined` when it can. */
export function declarePortObstacle(container: ContainerModel): string | undefined {
  const ports = container.locate('ports');
  if (ports && !writtenInContainer(container, 'ports')) return `the ports of container "${container.name}" come from an alias or merge key: declare the port where they are written`;
  if (ports && !ports.isNull && container.spec.ports === undefined) return `the ports of container "${container.name}" are not a list`;
  return undefined;
}

/** Why `input` is not a containerPort to declare as `name`; `undefined` when it is one. */
export function containerPortProblem(container: ContainerModel, name: string, input: string): string | undefined {
  const number = /^\s*\d+\s*$/.test(input) ? Number(input) : undefined;
  if (number === undefined || number < 1 || number > 65535) return 'A port number from 1 to 65535';
  const taken = (container.spec.ports ?? []).find((p) => p.containerPort === number && p.name !== undefined && p.name !== name && isTcp(p));
  if (taken) return `containerPort ${number} is already declared as "${taken.name}": use that name for the probe instead`;
  return undefined;
}

/** The number another container of the pod declares under this name: the likely intent, offered first. */
export function suggestedContainerPort(container: ContainerModel, name: string): number | undefined {
  return container.pod.containers.map((c) => findPortByName(c.spec, name)?.containerPort).find((n) => n !== undefined);
}

/**
 * The edit that declares `name` as `containerPort` in the container's `ports`, in the style
 * they are written (block or flow, their indentation), creating `ports` if it is absent. Model
 * positions are chunk-relative; `lineOffset` places them in `text`, the whole file.
 */
export function declarePort(container: ContainerModel, name: string, containerPort: number, text: string, lineOffset = 0): PortDeclaration {
  const obstacle = declarePortObstacle(container);
  if (obstacle) return { ok: false, reason: obstacle };
  const problem = containerPortProblem(container, name, String(containerPort));
  if (problem) return { ok: false, reason: problem };
  const declaration: Declaration = {
    lines: splitLines(text),
    lineBreak: lineBreakOf(text),
    place: (range) => shiftRange(range, lineOffset),
    name: yamlScalar(name),
    containerPort,
  };
  const ports = container.spec.ports ?? [];
  const unnamed = ports.findIndex((p) => p.containerPort === containerPort && p.name === undefined && isTcp(p));
  const edit =
    unnamed >= 0
      ? nameExistingPort(container, unnamed, declaration)
      : ports.length > 0
        ? appendPort(container, ports.length - 1, declaration)
        : newPorts(container, declaration);
  return edit ? { ok: true, edit } : { ok: false, reason: `the ports of container "${container.name}" are written in a way this fix cannot add to` };
}

interface Declaration {
  readonly lines: readonly string[];
  readonly lineBreak: string;
  readonly place: (range: Range) => Range;
  /** As a YAML scalar. */
  readonly name: string;
  readonly containerPort: number;
}

function flowPort(d: Declaration): string {
  return `{name: ${d.name}, containerPort: ${d.containerPort}}`;
}

/** `- containerPort: 8080` becomes `- name: metrics` / `containerPort: 8080`. */
function nameExistingPort(container: ContainerModel, index: number, d: Declaration): TextEdit | undefined {
  const entry = writtenInContainer(container, `ports[${index}]`);
  const keys = Object.keys(container.spec.ports?.[index] ?? {}).flatMap((field) => {
    const key = writtenInContainer(container, `ports[${index}].${field}`)?.key;
    return key ? [d.place(key).start] : [];
  });
  const firstKey = keys.sort(comparePositions)[0];
  if (!entry || !firstKey) return undefined;
  return prependToMap(d.lines, d.lineBreak, d.place(entry.value), firstKey, `name: ${d.name}`);
}

/** A new item after the last one, a flow map if that one is, else a block map aligned with it. */
function appendPort(container: ContainerModel, last: number, d: Declaration): TextEdit | undefined {
  const sequence = writtenInContainer(container, 'ports');
  const item = writtenInContainer(container, `ports[${last}]`);
  if (!sequence || !item) return undefined;
  const list = d.place(sequence.value);
  const lastItem = d.place(item.value);
  const dashOffset = lastItem.start.character - list.start.character;
  const afterDash = ' '.repeat(Math.max(1, dashOffset - 1));
  const blockItem = isFlowAt(d.lines, lastItem.start)
    ? [`-${afterDash}${flowPort(d)}`]
    : [`-${afterDash}name: ${d.name}`, `${' '.repeat(1 + afterDash.length)}containerPort: ${d.containerPort}`];
  return insertIntoSequenceAfter(d.lines, d.lineBreak, list, lastItem, [flowPort(d)], [blockItem]);
}

/** `ports` absent, null (`ports:`, `ports: ~`) or `[]`: written anew with the one port. */
function newPorts(container: ContainerModel, d: Declaration): TextEdit | undefined {
  const located = container.locate('ports');
  const range = d.place(container.range);
  const flowContainer = isFlowAt(d.lines, range.start);
  if (located && !located.isNull) {
    // `ports: []`: the item goes between the brackets.
    const list = d.place(located.value);
    return isFlowAt(d.lines, list.start) ? insertAt({ line: list.start.line, character: list.start.character + 1 }, flowPort(d)) : undefined;
  }
  if (located?.key) return replaceNullPorts(d.place(located.key), d.place(located.value), flowContainer, sequenceIndent(d.lines, range), d);
  const anchor = writtenInContainer(container, 'image') ?? writtenInContainer(container, 'name');
  if (flowContainer) {
    if (!anchor) return insertAt({ line: range.start.line, character: range.start.character + 1 }, `ports: [${flowPort(d)}], `);
    return appendToMap(d.lines, d.lineBreak, range, d.place(anchor.value).end, [`ports: [${flowPort(d)}]`]);
  }
  // After `image:` (else `name:`), where a reader looks for it; at the container's key column.
  const keyColumn = anchor?.key ? d.place(anchor.key).start.character : range.start.character;
  const afterLine = anchor ? d.place(anchor.value).end.line : range.end.line;
  return linesAfter(d.lines, d.lineBreak, afterLine, blockPorts(keyColumn, sequenceIndent(d.lines, range), d));
}

/** `ports:` with nothing (or `~`, `null`) after it: the key and its value rewritten. */
function replaceNullPorts(key: Range, value: Range, flowContainer: boolean, indent: number, d: Declaration): TextEdit | undefined {
  // An empty value's range is the key's own: the edit must take the colon after it too.
  const colon = (d.lines[key.end.line] ?? '').indexOf(':', key.end.character);
  const end: Position = comparePositions(value.end, key.end) > 0 ? value.end : { line: key.end.line, character: colon + 1 };
  if (colon < 0 && comparePositions(value.end, key.end) <= 0) return undefined;
  const range = { start: key.start, end };
  if (flowContainer) return { range, newText: `ports: [${flowPort(d)}]` };
  const [first, ...rest] = blockPorts(key.start.character, indent, d);
  return { range, newText: [(first ?? '').trimStart(), ...rest].join(d.lineBreak) };
}

function blockPorts(keyColumn: number, indent: number, d: Declaration): string[] {
  const pad = ' '.repeat(keyColumn);
  const dash = ' '.repeat(indent);
  return [`${pad}ports:`, `${pad}${dash}- name: ${d.name}`, `${pad}${dash}  containerPort: ${d.containerPort}`];
}

/**
 * How far this container indents a block sequence under its key: `env:` then `  - name: …` is
 * 2, `- name: …` in the key's own column is 0. The first such pair in the container decides; 2
 * when it has none.
 */
function sequenceIndent(lines: readonly string[], container: Range): number {
  for (let line = container.start.line; line < container.end.line; line++) {
    const key = /^(\s*)[^\s#-][^#]*:\s*(#.*)?$/.exec(lines[line] ?? '');
    const dash = /^(\s*)- /.exec(lines[line + 1] ?? '');
    if (key && dash) return Math.max(0, (dash[1] as string).length - (key[1] as string).length);
  }
  return 2;
}

function isTcp(port: ContainerPort): boolean {
  return (port.protocol ?? 'TCP') === 'TCP';
}
