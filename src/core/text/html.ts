/** Text for an HTML text node or a quoted attribute: it can neither open an element nor leave the attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
