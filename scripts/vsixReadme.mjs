#!/usr/bin/env node
// Writes dist/readme.md, the README that `npm run package` puts in the .vsix (vsce --readme-path).
// VS Code shows an installed extension's README in a webview whose Content-Security-Policy allows
// only `https:` and `data:` images, and it opens only http(s) and mailto links: a relative
// `docs/images/x.png` resolves against the webview's own page and is blocked, and a relative link
// leads nowhere. With no repository to point at, the packaged copy carries its images inline, as
// data: URIs, and its relative links become plain text. README.md itself keeps its relative links
// (for GitHub and editors). test/e2e/marketplaceTest.mjs checks the result on the details page.
//
//   node scripts/vsixReadme.mjs [--from README.md] [--to dist/readme.md]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: options } = parseArgs({
  options: {
    from: { type: 'string', default: 'README.md' },
    to: { type: 'string', default: 'dist/readme.md' },
  },
});

/** The image types a webview shows; vsce refuses SVG data: URIs. */
const MEDIA_TYPES = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };

/** `![alt](target "title")` and `[text](target)`: the forms README.md uses. */
const IMAGE = /!\[([^\]]*)\]\(([^)\s]+)(\s+"[^"]*")?\)/g;
const LINK = /(?<!!)\[([^\]]*)\]\(([^)\s]+)(\s+"[^"]*")?\)/g;

function isRelative(target) {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#') && !target.startsWith('//');
}

/** A relative image as a data: URI (an absolute one stays). Throws on a missing or unsupported file. */
function inlineImage(base, alt, target, title = '') {
  if (!isRelative(target)) return `![${alt}](${target}${title})`;
  const path = resolve(base, decodeURI(target));
  const type = MEDIA_TYPES[extname(path).toLowerCase()];
  if (!type) throw new Error(`${target}: only ${Object.keys(MEDIA_TYPES).join(' ')} images can be inlined`);
  return `![${alt}](data:${type};base64,${readFileSync(path).toString('base64')}${title})`;
}

/** A relative link as its text: the details page cannot open files of the extension. */
function unlinkRelative(text, target, title = '') {
  return isRelative(target) ? text : `[${text}](${target}${title})`;
}

/** Rewrites the prose of a Markdown text; fenced code blocks stay as they are. */
function packagedReadme(markdown, base) {
  const parts = markdown.split(/(^[ \t]*```[^\n]*\n[\s\S]*?^[ \t]*```[ \t]*$)/m);
  return parts
    .map((part, i) => (i % 2 === 1 ? part : part.replace(IMAGE, (_, alt, target, title) => inlineImage(base, alt, target, title)).replace(LINK, (_, text, target, title) => unlinkRelative(text, target, title))))
    .join('');
}

const from = resolve(options.from);
const text = packagedReadme(readFileSync(from, 'utf8'), dirname(from));
mkdirSync(dirname(resolve(options.to)), { recursive: true });
writeFileSync(options.to, text);
console.log(`${options.to}: ${options.from} with its images inline (${(Buffer.byteLength(text) / 1024).toFixed(0)} KB)`);
