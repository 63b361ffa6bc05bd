// The web app's index.html, rendered per request under a strict script CSP (docs/decisions.md, "Token and
// content hardening"): the session token lives in the browser, so no script may run unless the server put
// it on the page. Each response gets a fresh nonce in its `script-src`; the page's own scripts and the
// admin's tracking codes (spec part 1 §3: head_tracking_codes, body_tracking_codes) carry it, anything
// injected later (no nonce) does not run. 'strict-dynamic' lets those trusted scripts load others
// (lazy chunks, analytics loaders, payment SDKs) without listing every host.
import { randomBytes } from 'node:crypto';
import { getConfig } from '../appconfig/read';
import type { AppContext } from '../../context';
import type { FirstPaint } from './first-paint';
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

// The app's entry and the requests index.html starts ahead of it, as they are in the page by now.
const ENTRY_SCRIPT = /<script nonce="[^"]*" type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
const EARLY_REQUEST = /<link\b[^>]*\brel="(?:modulepreload|preload)"[^>]*>\s*/g;
const HREF = /\bhref="([^"]+)"/;

/**
 * With a first paint, the page's scripts wait for its first paint: the entry and what index.html fetched
 * ahead of it (the modulepreloads, the configuration) start once the picture is on screen, so on a slow
 * network the stylesheets it waits for do not share the line with ~150 KB of scripts, and the browser
 * paints before it runs them. A hidden tab has no frames to wait for.
 */
function entryAfterFirstFrame(html: string, nonce: string): string {
  const entry = ENTRY_SCRIPT.exec(html)?.[1];
  if (!entry) return html;
  const early: { rel: string; href: string; as?: string }[] = [];
  html = html.replace(EARLY_REQUEST, (tag) => {
    const href = HREF.exec(tag)?.[1];
    if (!href) return tag;
    early.push(tag.includes('"modulepreload"') ? { rel: 'modulepreload', href } : { rel: 'preload', href, as: /\bas="([^"]+)"/.exec(tag)?.[1] ?? 'fetch' });
    return '';
  });
  const start =
    `var n=${JSON.stringify(nonce)};` +
    `${JSON.stringify(early)}.forEach(function(e){var l=document.createElement('link');l.rel=e.rel;if(e.as)l.as=e.as;l.crossOrigin=e.as==='fetch'?'anonymous':'';l.nonce=n;l.href=e.href;document.head.appendChild(l);});` +
    // The libraries run one per task before the entry: one long task at start-up becomes a few shorter ones.
    `var next=function(){return new Promise(function(r){setTimeout(r)})},c=Promise.resolve();` +
    `${JSON.stringify(early.filter((e) => e.rel === 'modulepreload').map((e) => e.href))}.forEach(function(h){c=c.then(function(){return import(h)}).catch(function(){}).then(next)});` +
    `c.then(function(){return import(${JSON.stringify(entry)})});`;
  // Once the picture's paint is recorded (Paint Timing; after a frame where the browser cannot tell, 3 s at
  // most): a script requested before it shares the slow network with its stylesheets and, in Lighthouse's
  // simulation, counts towards its FCP and LCP.
  const afterPaint =
    `var go=function(){if(!go.done){go.done=1;setTimeout(start)}};` +
    `try{new PerformanceObserver(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();go()}}).observe({type:'paint',buffered:true})}` +
    `catch(e){requestAnimationFrame(go)}setTimeout(go,3000);`;
  // No picture to wait for: a hidden tab, or a visit index.html's first script took the picture away from (a
  // signed-in visitor on a screen the server did not draw). Nothing contentful paints before the app then, so
  // waiting for a first paint would hold every such page load for the 3 s fallback.
  const script = `<script type="module" nonce="${nonce}">var start=function(){${start}};if(document.visibilityState==='hidden'||!document.documentElement.hasAttribute('data-first-paint'))start();else{${afterPaint}}</script>`;
  return html.replace(ENTRY_SCRIPT, () => script);
}

/** The first paint's parts in the page (first-paint.ts): the overlay's attribute, stylesheets and markup. */
function withFirstPaint(html: string, firstPaint: FirstPaint, nonce: string): string {
  const { lang } = firstPaint;
  html = entryAfterFirstFrame(html, nonce);
  // Added after the nonces: the drawn screen's markup never gets one (React escaped its text; nothing in it runs).
  html = html.replace(/<html\b/i, `<html data-first-paint="${lang}"${firstPaint.signedIn ? ' data-first-paint-screen="conversation"' : ''}`);
  const links = firstPaint.stylesheets.map((url) => `<link rel="stylesheet" crossorigin href="${escapeAttribute(url)}">`).join('');
  html = insertBefore(html, /<\/head\s*>/i, links);
  const overlay = `<div id="first-paint" inert aria-hidden="true" lang="${lang}">${firstPaint.html}</div>`;
  return html.replace('<div id="root"></div>', () => `<div id="root"></div>${overlay}`);
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * index.html with the nonce on its scripts, the tracking codes at the end of head and body and, for a
 * signed-out screen, its first paint.
 */
export function renderIndexHtml(template: string, options: { nonce: string; headCodes: string; bodyCodes: string; firstPaint?: FirstPaint | null }): string {
  const { nonce } = options;
  let html = addNonceToTags(template, nonce, TEMPLATE_TAGS);
  if (options.firstPaint) html = withFirstPaint(html, options.firstPaint, nonce);
  html = insertBefore(html, /<\/head\s*>/i, addNonceToTags(options.headCodes.trim(), nonce, SNIPPET_TAGS));
  // The last </body>: the body codes go after the app's own markup.
  html = insertBefore(html, /<\/body\s*>(?![\s\S]*<\/body\s*>)/i, addNonceToTags(options.bodyCodes.trim(), nonce, SNIPPET_TAGS));
  return html;
}

/** Renders the page for one response: its nonce, the tracking codes as currently configured, the first paint. */
export async function indexHtmlFor(ctx: AppContext, template: string, res: object, firstPaint?: Promise<FirstPaint | null>): Promise<string> {
  const [headCodes, bodyCodes, paint] = await Promise.all([getConfig(ctx, 'head_tracking_codes'), getConfig(ctx, 'body_tracking_codes'), firstPaint]);
  return renderIndexHtml(template, { nonce: responseNonce(res), headCodes, bodyCodes, firstPaint: paint });
}
