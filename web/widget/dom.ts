// A tiny element builder: attributes through setAttribute (never `style`, which a strict CSP blocks when
// set from a string; CSS variables go through element.style.setProperty) and text through textContent
// (never innerHTML: visitors' and the AI's text are shown as text).

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

const SVG = 'http://www.w3.org/2000/svg';

/** A decorative icon from path data (hidden from assistive technology; its button carries the label). */
export function icon(paths: string[]): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', 'pw-icon');
  for (const d of paths) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

export const ICONS = {
  chat: ['M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z'],
  close: ['M6 6l12 12', 'M18 6L6 18'],
  send: ['M4 12l16-8-6 16-2-7z'],
  plus: ['M12 5v14', 'M5 12h14'],
  stop: ['M7 7h10v10H7z'],
};
