// The embed snippet the generator shows (spec part 2 §2 "Chat widget generator"; contract C): the stylesheet,
// the container and the script, all from the app's origin. The spec's original carried the user id; this one
// carries only the widget's public key (a rotated key turns old snippets off), the accent without '#', the
// name, the button image and the language — never the owner's id, token or any secret.
import { WIDGET_CONTAINER_ID, WIDGET_SCRIPT_PATH, WIDGET_STYLESHEET_PATH } from '@pluma/common/widgets';

export interface SnippetWidget {
  public_key: string;
  accent_color: string;
  name: string;
  image_url: string | null;
}

/** Escapes text for an HTML attribute value in double quotes (and for text content). */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The snippet for `widget`, served from `origin` (e.g. 'https://app.example.com'), in `lang`. */
export function widgetSnippet(widget: SnippetWidget, origin: string, lang: 'en' | 'es'): string {
  const base = escapeHtml(origin.replace(/\/+$/, ''));
  const attribute = (name: string, value: string) => `data-${name}="${escapeHtml(value)}"`;
  const container = [
    `id="${WIDGET_CONTAINER_ID}"`,
    attribute('key', widget.public_key),
    attribute('accent', widget.accent_color.replace(/^#/, '')),
    attribute('name', widget.name),
    attribute('image', widget.image_url ?? ''),
    attribute('lang', lang),
  ].join(' ');
  return [
    `<link rel="stylesheet" href="${base}${WIDGET_STYLESHEET_PATH}">`,
    `<div ${container}></div>`,
    `<script src="${base}${WIDGET_SCRIPT_PATH}" defer></script>`,
  ].join('\n');
}
