// The widget script's entry (built by vite.widget.config.ts into /widget/pluma-widget.js, an IIFE that
// exposes window.PlumaWidget.mount for pages that add the widget's element later). Its own src, captured
// while it first runs, says where the API and the stylesheet are: the snippet carries only a public key.
import './widget.css';
import { mountAll } from './widget';

const scriptSrc =
  (document.currentScript as HTMLScriptElement | null)?.src ||
  document.querySelector<HTMLScriptElement>('script[src*="pluma-widget.js"]')?.src ||
  '';

export function mount() {
  if (!scriptSrc) return [];
  return mountAll(document, { scriptSrc });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => mount(), { once: true });
else mount();
