import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type Scalar } from 'yaml';
import type { Range } from '../../text/range';
import { isUrl } from '../files';

/**
 * What a kustomization file names on disk, each entry with where it is written: the bases and
 * resources it builds on, the patches that rewrite them, and the files its generators read.
 * kustomize itself reads the file again; this is what Probe Lens must know before it runs it —
 * which entry would reach the network, which is missing, and which files to copy for a render
 * of unsaved text — so each entry keeps its line.
 */
export interface KustomizationFile {
  readonly file: string;
  readonly text: string;
  /** The file does not read as YAML: kustomize will say so; the first problem's place. */
  readonly yamlError?: { readonly message: string; readonly range: Range };
  readonly references: readonly KustomizationReference[];
  /** `helmCharts:`, which kustomize renders only with --enable-helm (it runs helm and may fetch a chart). */
  readonly helmCharts?: Range;
}

export interface KustomizationReference {
  /** How kustomize reads it: a directory or file it builds on, a patch, or a file a generator reads. */
  readonly role: 'resource' | 'component' | 'patch' | 'file';
  /** The field it is written under: `resources`, `patches[].path`, `configMapGenerator[].files`. */
  readonly field: string;
  /** As written (a generator's `key=path` reduced to the path). */
  readonly value: string;
  readonly range: Range;
}

/** Fields whose list items are bases or resources: directories holding a kustomization, or manifest files. */
const RESOURCE_LISTS = { resources: 'resource', bases: 'resource', components: 'component' } as const;
/** Fields whose list items are files (or, for some, inline YAML, which is not a path). */
const FILE_LISTS = ['crds', 'configurations', 'generators', 'transformers', 'validators'] as const;

export function readKustomizationFile(file: string, text: string): KustomizationFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  const rangeOf = (node: Node | undefined | null): Range => {
    const [start, end] = node?.range ?? [0, 0];
    const from = lines.linePos(start);
    const to = lines.linePos(end);
    return { start: { line: from.line - 1, character: from.col - 1 }, end: { line: to.line - 1, character: to.col - 1 } };
  };
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    const position = { line: (at?.line ?? 1) - 1, character: (at?.col ?? 1) - 1 };
    return { file, text, yamlError: { message: error.message.split('\n')[0] ?? error.message, range: { start: position, end: position } }, references: [] };
  }
  const root = doc.contents;
  if (!isMap(root)) return { file, text, references: [] };
  const references: KustomizationReference[] = [];
  const add = (role: KustomizationReference['role'], field: string, node: unknown, value?: string) => {
    if (!isScalar(node) || typeof (node as Scalar).value !== 'string') return;
    const written = value ?? ((node as Scalar).value as string);
    if (written.trim() === '' || written.includes('\n')) return; // inline YAML, not a path
    references.push({ role, field, value: written.trim(), range: rangeOf(node as Node) });
  };
  const items = (key: string): unknown[] => {
    const list = root.get(key, true);
    return isSeq(list) ? list.items : [];
  };

  for (const [key, role] of Object.entries(RESOURCE_LISTS)) for (const item of items(key)) add(role, key, item);
  for (const key of FILE_LISTS) for (const item of items(key)) add('file', key, item);
  for (const item of items('patchesStrategicMerge')) add('patch', 'patchesStrategicMerge', item);
  for (const key of ['patches', 'patchesJson6902', 'replacements']) {
    for (const item of items(key)) if (isMap(item)) add(key === 'replacements' ? 'file' : 'patch', `${key}[].path`, item.get('path', true));
  }
  for (const key of ['configMapGenerator', 'secretGenerator']) {
    for (const generator of items(key)) {
      if (!isMap(generator)) continue;
      const files = generator.get('files', true);
      for (const entry of isSeq(files) ? files.items : []) {
        // `key=path` names the key the file's content is stored under.
        const text = isScalar(entry) && typeof entry.value === 'string' ? entry.value : '';
        add('file', `${key}[].files`, entry, text.includes('=') ? text.slice(text.indexOf('=') + 1) : text);
      }
      const envs = generator.get('envs', true);
      for (const entry of isSeq(envs) ? envs.items : []) add('file', `${key}[].envs`, entry);
      add('file', `${key}[].env`, generator.get('env', true));
    }
  }
  const openapi = root.get('openapi', true);
  if (isMap(openapi)) add('file', 'openapi.path', openapi.get('path', true));
  const helm = root.get('helmCharts', true);
  return { file, text, references, ...(helm ? { helmCharts: rangeOf(root.items.find((p) => isScalar(p.key) && p.key.value === 'helmCharts')?.key as Node) } : {}) };
}

/**
 * An entry kustomize would fetch rather than read: a URL, a git address, or a path whose first
 * segment is a host (`github.com/org/repo/dir?ref=v1`), as kustomize's repospec reads them.
 */
export function isRemoteReference(value: string): boolean {
  if (isUrl(value) || /^git::|^git@|^ssh:/i.test(value)) return true;
  if (/[?&](?:ref|version|timeout|submodules)=/.test(value)) return true;
  const first = value.split('/')[0] ?? '';
  return value.includes('/') && /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?::\d+)?$/i.test(first);
}
