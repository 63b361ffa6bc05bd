// The web app's index.html, rendered per request under a strict script CSP (docs/decisions.md, "Token and
// content hardening"): the session token lives in the browser, so no script may run unless the server put
// it on the page. Each response gets a fresh nonce in its `script-src`; the page's own scripts and the
// admin's tracking codes (spec part 1 §3: head_tracking_codes, body_tracking_codes) carry it, anything
// injected later (no nonce) does not run. 'strict-dynamic' lets those trusted scripts load others
// (lazy chunks, analytics loaders, payment SDKs) without listing every host.
import { randomBytes } from 'node:crypto';
import { getConfig } from '../appconfig/read';
import type { AppContext } from '../../context';
import { addNonceToTags } from './html-nonce';

const nonces = new WeakMap<object, string>();

/**
 * A helmet CSP directive source: draws a fresh nonce for this response and remembers it for the page.
 * Helmet calls it once per response with Node's raw request and response.
 */
export function scriptNonceSource(_req: unknown, res: object): string {
  const nonce = randomBytes(16).toString('base64');
  nonces.set(res, nonce);
  return `'nonce-${nonce}'`;
}

/**
 * A helmet CSP directive source for connect-src: WebSockets to the host the page was asked from (Socket.IO).
 * 'self' covers them in current browsers (Chrome 71+, Safari 16+); this names them for older ones. A Host
 * header that is not a plain host[:port] adds nothing.
 */
export function sameHostWebSockets(req: { headers: { host?: string } }): string {
  const host = req.headers.host ?? '';
  if (!/^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host)) return "'self'";
  return `ws://${host} wss://${host}`;
}

/** The nonce of this response's CSP header (reply.raw), set by `scriptNonceSource`. */
export function responseNonce(res: object): string {
  const nonce = nonces.get(res);
  if (!nonce) throw new Error('No CSP nonce for this response: is helmet registered with scriptNonceSource?');
  return nonce;
}

// Our template's <link rel="modulepreload"> fetches scripts too: it needs the nonce under 'strict-dynamic'.
const TEMPLATE_TAGS = new Set(['script', 'link']);
const SNIPPET_TAGS = new Set(['script']);

function insertBefore(html: string, marker: RegExp, snippet: string): string {
  const match = marker.exec(html);
  if (!match || !snippet) return html;
  return html.slice(0, match.index) + snippet + '\n' + html.slice(match.index);
}

/** index.html with the nonce on its scripts and the tracking codes at the end of head and body. */
export function renderIndexHtml(template: string, options: { nonce: string; headCodes: string; bodyCodes: string }): string {
  const { nonce } = options;
  let html = addNonceToTags(template, nonce, TEMPLATE_TAGS);
  html = insertBefore(html, /<\/head\s*>/i, addNonceToTags(options.headCodes.trim(), nonce, SNIPPET_TAGS));
  // The last </body>: the body codes go after the app's own markup.
  html = insertBefore(html, /<\/body\s*>(?![\s\S]*<\/body\s*>)/i, addNonceToTags(options.bodyCodes.trim(), nonce, SNIPPET_TAGS));
  return html;
}

/** Renders the page for one response: its nonce and the tracking codes as currently configured. */
export async function indexHtmlFor(ctx: AppContext, template: string, res: object): Promise<string> {
  const [headCodes, bodyCodes] = await Promise.all([getConfig(ctx, 'head_tracking_codes'), getConfig(ctx, 'body_tracking_codes')]);
  return renderIndexHtml(template, { nonce: responseNonce(res), headCodes, bodyCodes });
}
