// A stranger's website for the widget journey: static pages served by node:http on another port of
// 127.0.0.1 (another origin than the app's), each with a strict Content-Security-Policy that allows only
// the app's origin for scripts, styles, requests, images and frames (docs/widget.md lists the directives).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostSite {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** Serves `html` at `path` from now on. */
  page(path: string, html: string): string;
  close(): Promise<void>;
}

/** The strict policy a site embedding the widget from `appOrigin` needs (frame-src only for /chat-embedded). */
export function strictWidgetCsp(appOrigin: string): string {
  return [
    "default-src 'none'",
    `script-src ${appOrigin}`,
    `style-src ${appOrigin}`,
    `connect-src ${appOrigin}`,
    `img-src ${appOrigin} data:`,
    `frame-src ${appOrigin}`,
  ].join('; ');
}

export function hostDocument(title: string, body: string, lang = 'en'): string {
  return `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n<main><h1>${title}</h1><p id="page-text">A page of another website.</p></main>\n${body}\n</body></html>\n`;
}

export async function startHostSite(appOrigin: string): Promise<HostSite> {
  const pages = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://host').pathname;
    const html = pages.get(path);
    if (request.method !== 'GET' || html === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': strictWidgetCsp(appOrigin), 'cache-control': 'no-store' })
      .end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    page(path, html) {
      pages.set(path, html);
      return `${origin}${path}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
