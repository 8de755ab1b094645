/** At most `max` characters, cut at the last space before it (never inside a word), marked with `…`. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max - 1);
  return `${text.slice(0, cut > max / 2 ? cut : max - 1).replace(/[\s,;:]+$/, '')}…`;
}

/** A text as the end of a sentence: a full stop unless it already ends like one. */
export function sentenceEnd(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}
