/** How Go formats what the kubelet puts in probe outputs, so ours read the same. */

/** `net.JoinHostPort`: IPv6 addresses in brackets. */
export function joinHostPort(host: string, port: number | string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Go's `%q` for a string (`strconv.Quote`): double quotes; `"` and `\` backslash-escaped;
 * printable characters (Unicode L, M, N, P, S and the ASCII space) kept; `\a \b \f \n \r \t \v`;
 * other characters below U+0020 and U+007F as `\xHH`; the rest as `\uHHHH` / `\UHHHHHHHH`, lower-case
 * hex. A lone surrogate cannot reach Go (it becomes U+FFFD in UTF-8), so it is shown as U+FFFD.
 * Printability follows this Node's Unicode tables, which can differ from Go's for newly assigned
 * characters.
 */
export function goQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === '"' || char === '\\') out += '\\' + char;
    else if (code >= 0xd800 && code <= 0xdfff) out += '\ufffd';
    else if (char === ' ' || PRINTABLE.test(char)) out += char;
    else out += escapeUnprintable(code);
  }
  return out + '"';
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

const SHORT_ESCAPES: Readonly<Record<number, string>> = { 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v' };

function escapeUnprintable(code: number): string {
  const short = SHORT_ESCAPES[code];
  if (short !== undefined) return short;
  if (code < 0x20 || code === 0x7f) return '\\x' + hex(code, 2);
  if (code < 0x10000) return '\\u' + hex(code, 4);
  return '\\U' + hex(code, 8);
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** Go's `time.Duration.String()` (`1s`, `1.5s`, `500ms`, `1m30s`, `0s`) for a duration in ms. */
export function goDuration(ms: number): string {
  let ns = Math.round(Math.abs(ms) * 1e6);
  const sign = ms < 0 && ns !== 0 ? '-' : '';
  if (ns === 0) return '0s';
  if (ns < 1e3) return `${sign}${ns}ns`;
  if (ns < 1e6) return `${sign}${fixed(ns, 1e3)}µs`;
  if (ns < 1e9) return `${sign}${fixed(ns, 1e6)}ms`;
  const hours = Math.floor(ns / 3.6e12);
  ns -= hours * 3.6e12;
  const minutes = Math.floor(ns / 6e10);
  ns -= minutes * 6e10;
  const seconds = `${fixed(ns, 1e9)}s`;
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}`;
  return minutes > 0 ? `${sign}${minutes}m${seconds}` : `${sign}${seconds}`;
}

/** `value / unit` with Go's shortest fraction (trailing zeros dropped). */
function fixed(value: number, unit: number): string {
  const whole = Math.floor(value / unit);
  const digits = String(unit).length - 1;
  const fraction = String(value - whole * unit).padStart(digits, '0').replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}
