/**
 * The small manifests the rule examples are written in: the same Pod around different probes,
 * so that a reader sees only what changes between the example that triggers a rule and its fix.
 */

/** A Pod whose one container `web` has these fields (written at any indentation). */
export function pod(containerFields: string, podFields = ''): string {
  return podSpec(`${podFields ? `${dedent(podFields)}\n` : ''}containers:\n  - name: web\n    image: example/web:1.0\n${indent(dedent(containerFields), 4)}`);
}

/** A Pod named `web` with these fields under `spec:`. */
export function podSpec(specFields: string): string {
  return `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n${indent(dedent(specFields), 2)}\n`;
}

/** A manifest written indented in the source, without that indentation. */
export function manifest(text: string): string {
  return `${dedent(text)}\n`;
}

/** Removes the indentation every non-blank line shares, and blank lines at either end. */
function dedent(text: string): string {
  const lines = text.replace(/^\s*\n/, '').replace(/\n\s*$/, '').split('\n');
  const shared = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)?.[0].length ?? 0));
  return lines.map((l) => l.slice(shared)).join('\n');
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((l) => (l.trim() === '' ? '' : pad + l))
    .join('\n');
}
