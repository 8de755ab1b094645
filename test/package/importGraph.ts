/**
 * The import graph of src/, read from the sources: which file imports which (type-only imports
 * included: a type import closes a circle as surely as any other), and the room each file is in.
 * The layering tests and `npm run graph` (scripts/importGraph.mjs prints the same figures) read it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

export interface Import {
  readonly from: string;
  /** The file imported, repository-relative with `/`; undefined for a package or a node built-in. */
  readonly to: string | undefined;
  readonly specifier: string;
  readonly typeOnly: boolean;
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^;]*?\sfrom\s+)?['"]([^'"]+)['"]|\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g;

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

function resolveFile(importer: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = relative(process.cwd(), resolve(dirname(importer), specifier));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) if (existsSync(candidate) && statSync(candidate).isFile()) return toPosix(candidate);
  return undefined;
}

export function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  return Array.from(text.matchAll(IMPORT), (m) => {
    const specifier = m[3] ?? m[4] ?? '';
    return { from: toPosix(file), to: resolveFile(file, specifier), specifier, typeOnly: m[2] !== undefined };
  });
}

/** Every file's imports, keyed by file. */
export function importGraph(root = 'src'): Map<string, Import[]> {
  return new Map(sources(root).map((file) => [toPosix(file), importsOf(file)]));
}

/** Circles of files (strongly connected components of more than one file, or a file importing itself). */
export function circles(graph: ReadonlyMap<string, readonly Import[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const { to } of graph.get(file) ?? []) {
      if (to === undefined || !graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).some((i) => i.to === file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/**
 * The room a file is in: the first folder under its layer (`src/core/rules/api/x.ts` → `rules`),
 * or `.` for the layer's own top-level files (`src/core/check.ts`).
 */
export function roomOf(file: string, layer: string): string {
  const rest = file.slice(layer.length + 1).split('/');
  return rest.length === 1 ? '.' : (rest[0] as string);
}
