/**
 * Building DOM safely: text goes in as `textContent`, attributes one by one with `setAttribute`
 * (never `style` or `on*`: a strict CSP refuses inline style and script, and event text is
 * untrusted). Styles are classes from media/timeline.css, or CSSOM properties set in code.
 */

export interface Props {
  readonly className?: string;
  readonly text?: string;
  readonly id?: string;
  readonly attrs?: Readonly<Record<string, string>>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, children: readonly (Node | undefined)[] = []): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.className) element.className = props.className;
  if (props.id) element.id = props.id;
  if (props.text !== undefined) element.textContent = props.text;
  if (props.attrs) {
    for (const [name, value] of Object.entries(props.attrs)) {
      if (name === 'style' || name.startsWith('on')) throw new Error(`refusing attribute ${name}`);
      element.setAttribute(name, value);
    }
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/** Whether VS Code's codicon stylesheet is linked (the panel has it; the CLI's page does not). */
export function hasCodicons(): boolean {
  return document.querySelector('link[rel~="stylesheet"][href*="codicon"]') !== null;
}

export interface ButtonSpec {
  /** `title` and `aria-label`. */
  readonly label: string;
  /** What the button says without codicons (the HTML page). */
  readonly text: string;
  readonly icon: string;
  /** Also show `text` beside the icon. */
  readonly showText?: boolean;
  readonly className?: string;
  readonly toggle?: boolean;
}

/** A codicon beside a label (decoration: hidden from screen readers), when the panel has them; nothing on the page. */
export function decorativeIcon(icon: string, codicons: boolean): HTMLSpanElement | undefined {
  return codicons ? h('span', { className: `codicon codicon-${icon}`, attrs: { 'aria-hidden': 'true' } }) : undefined;
}

/** A toolbar button: a codicon when the panel has them, a word when not; always a title and an aria-label. */
export function button(spec: ButtonSpec, codicons: boolean, onClick: (event: MouseEvent) => void): HTMLButtonElement {
  const element = h('button', { className: `tl-button${spec.className ? ` ${spec.className}` : ''}`, attrs: { type: 'button', title: spec.label, 'aria-label': spec.label } });
  setButtonFace(element, spec, codicons);
  if (spec.toggle) element.setAttribute('aria-pressed', 'false');
  element.addEventListener('click', onClick);
  return element;
}

export function setButtonFace(element: HTMLButtonElement, spec: ButtonSpec, codicons: boolean): void {
  element.replaceChildren();
  element.title = spec.label;
  element.setAttribute('aria-label', spec.label);
  if (codicons) {
    element.append(h('span', { className: `codicon codicon-${spec.icon}`, attrs: { 'aria-hidden': 'true' } }));
    if (spec.showText) element.append(h('span', { className: 'tl-button-text', text: spec.text }));
  } else {
    element.append(h('span', { className: 'tl-button-text', text: spec.text }));
  }
}
