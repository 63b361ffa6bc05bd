// Serves the built web app (web/dist): its static files, compressed ahead of time by the web build
// (web/vite.config.ts, plugin "pluma-precompress"), and index.html for every other non-API path
// (client-side routing), rendered per request (index-html.ts).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import type { ConfigEntry } from '@pluma/common/appconfig';
import { firstPaintRenderer, type ConversationPicture, type FirstPaint } from './first-paint';
import { indexHtmlFor } from './index-html';

/** Hashed build output: its name changes with its content, so a browser may keep it for good. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Other static files (favicon.svg and the rest of web/public) keep their name across deploys. */
export const SHORT_CACHE = 'public, max-age=3600';
const ASSETS_PREFIX = '/assets/';
/**
 * Security headers that only a document (or a worker) obeys. Sent with each of a first load's dozens of
 * scripts and stylesheets they would add ~0.6 KB apiece (most of it the CSP) to a slow network's
 * transfer for nothing, so hashed scripts and stylesheets go without them; nosniff, CORP, HSTS and the
 * referrer policy (a stylesheet's own requests follow it) stay.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'x-frame-options',
  'x-xss-protection',
  'x-download-options',
  'x-dns-prefetch-control',
  'x-permitted-cross-domain-policies',
  'origin-agent-cluster',
  'cross-origin-opener-policy',
];
/** A script or stylesheet, or its pre-compressed sibling (the file actually sent). */
const SCRIPT_OR_STYLE = /\.(?:js|mjs|css)(?:\.br|\.gz)?$/;
const COMPRESSED_SIBLING = /\.(?:br|gz)$/;
/** Below this, compressing the rendered page saves less than it costs. */
const MIN_COMPRESS_BYTES = 1024;

/** web/dist: WEB_DIST_DIR, else the nearest `web/dist` with an index.html above this module (source or bundle). */
export function webDistDir(ctx: AppContext): string | undefined {
  if (ctx.env.WEB_DIST_DIR) {
    const dir = path.resolve(ctx.env.WEB_DIST_DIR);
    return existsSync(path.join(dir, 'index.html')) ? dir : undefined;
  }
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let up = 1; up <= 4; up++) {
    const candidate = path.resolve(here, '../'.repeat(up), 'web', 'dist');
    if (existsSync(path.join(candidate, 'index.html'))) return candidate;
  }
  return undefined;
}

/** The encoding to send the rendered page in: brotli, then gzip, when the client accepts it (q > 0). */
export function pageEncoding(acceptEncoding: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set<string>();
  for (const part of String(acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

function compressPage(html: string, encoding: 'br' | 'gzip'): Buffer {
  const source = Buffer.from(html);
  // A middle brotli quality: the page is compressed per response, so speed matters more than the last byte.
  return encoding === 'br'
    ? brotliCompressSync(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length } })
    : gzipSync(source, { level: 6 });
}

/**
 * Static files: the .br or .gz sibling when the client accepts it (Content-Encoding, Vary: Accept-Encoding);
 * hashed files under /assets/ cached for a year, immutable, others for an hour; hashed scripts and
 * stylesheets without the document-only security headers. index.html is rendered per
 * request (its CSP nonce and the tracking codes), so it is never served as a file and never cached: a
 * cached page would carry a stale nonce. A missing /assets/ file is a 404, not the page (a stale chunk
 * name after a deploy must fail as a script, not parse HTML).
 */
/**
 * The cookie the web app keeps its session token in for the first paint of an open conversation
 * (web/src/api/token-store.ts, Path=/conversations, SameSite=Strict). Read only here, for that picture.
 */
export const FIRST_PAINT_COOKIE = 'pluma_fp';
const CONVERSATION_PATH = /^\/conversations\/(\d{1,9})\/?(?:\?|$)/;

/** The session token of the first-paint cookie, if the request has one. */
export function firstPaintToken(cookieHeader: string | undefined): string | null {
  for (const part of String(cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === FIRST_PAINT_COOKIE) {
      const value = part.slice(at + 1).trim();
      return /^[A-Za-z0-9._~-]{16,512}$/.test(value) ? value : null;
    }
  }
  return null;
}

export interface WebAppOptions {
  /** The public configuration (what GET /api/appconfig sends): the first paint needs it. */
  publicConfig?: () => Promise<ConfigEntry[]>;
  /** The records of a signed-in visitor's open conversation (features/messages/conversation-picture-http.ts), or null. */
  conversationPicture?: (token: string, conversationId: number) => Promise<Omit<ConversationPicture, 'url' | 'lang'> | null>;
}

export async function registerWebApp(app: FastifyInstance, ctx: AppContext, options: WebAppOptions = {}): Promise<void> {
  const root = webDistDir(ctx);
  if (!root) return;
  const template = readFileSync(path.join(root, 'index.html'), 'utf8');
  const { publicConfig, conversationPicture } = options;
  const renderer = publicConfig ? firstPaintRenderer(root, app.log) : null;
  /** The picture for this page: the visitor's open conversation, else the signed-out screen at this URL. */
  const firstPaintOf = async (url: string, headers: { 'accept-language'?: string; cookie?: string }): Promise<FirstPaint | null> => {
    if (!renderer || !publicConfig) return null;
    try {
      const token = firstPaintToken(headers.cookie);
      const conversationId = Number(CONVERSATION_PATH.exec(url)?.[1]);
      if (token && conversationPicture && conversationId > 0) {
        const [records, entries] = await Promise.all([conversationPicture(token, conversationId), publicConfig()]);
        if (records) return await renderer.conversation({ url: url.split('?')[0] ?? url, lang: records.user.lang, ...records }, entries);
      }
      return await renderer.signedOut(url, headers['accept-language'], await publicConfig());
    } catch (error) {
      app.log.warn({ err: error }, 'first paint: skipped');
      return null;
    }
  };
  const assetsDir = path.join(root, 'assets') + path.sep;
  // The chat widget's script and stylesheet run on other websites (contract B).
  const widgetDir = path.join(root, 'widget') + path.sep;
  const setHeaders: FastifyStaticOptions['setHeaders'] = (reply, filePath) => {
    const hashed = filePath.startsWith(assetsDir);
    reply.header('Cache-Control', hashed ? IMMUTABLE_CACHE : SHORT_CACHE);
    // Helmet writes its headers on the raw response (an onRequest hook).
    if (hashed && SCRIPT_OR_STYLE.test(filePath)) for (const name of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(name);
    if (filePath.startsWith(widgetDir)) reply.header('Cross-Origin-Resource-Policy', 'cross-origin').header('Access-Control-Allow-Origin', '*');
  };
  // The compressed siblings are chosen by preCompressed, never asked for by name.
  const common = { index: false as const, preCompressed: true, cacheControl: false, setHeaders };
  // The hashed assets (~800 files) are one wildcard route: a route for each (GET and HEAD) made every start
  // list the folder and add ~1,600 routes to the router (issue 31 item 4: cold start).
  await app.register(fastifyStatic, { ...common, root: assetsDir, prefix: ASSETS_PREFIX, wildcard: true, allowedPath: (pathName: string) => !COMPRESSED_SIBLING.test(pathName) });
  // The dozen files beside index.html keep a route each: the page's own `/*` is every other URL's fallback.
  await app.register(fastifyStatic, { ...common, root, wildcard: false, globIgnore: ['index.html', 'assets/**', '**/*.br', '**/*.gz'], decorateReply: false });
  app.get('/*', async (request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.url.startsWith(ASSETS_PREFIX)) return reply.callNotFound();
    const firstPaint = firstPaintOf(request.url, request.headers);
    const html = await indexHtmlFor(ctx, template, reply.raw, firstPaint);
    // A page that carries the visitor's own records is never stored by anyone.
    const own = (await firstPaint)?.signedIn === true;
    reply.header('Cache-Control', own ? 'private, no-store' : 'no-cache').header('Vary', 'Accept-Encoding, Accept-Language, Cookie').type('text/html; charset=utf-8');
    const encoding = pageEncoding(request.headers['accept-encoding']);
    if (!encoding || Buffer.byteLength(html) < MIN_COMPRESS_BYTES) return reply.send(html);
    return reply.header('Content-Encoding', encoding).send(compressPage(html, encoding));
  });
}
