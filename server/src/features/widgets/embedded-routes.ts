// GET /chat-embedded?key=<publicKey>[&lang=es] (contract B): the widget as a whole page, for websites that
// frame it instead of adding the script. Rendered on the server without any inline script: the page loads
// the widget's stylesheet and script from /widget/ with the container in embedded mode. Its
// Content-Security-Policy frame-ancestors lists the widget's allowed websites ('none' when the list is empty,
// the widget disabled or the key unknown), so only those websites can frame it.
import type { Lang } from '@pluma/common/constants';
import { translate } from '@pluma/common/messages';
import { CHAT_EMBEDDED_PATH, WIDGET_CONTAINER_ID, WIDGET_PUBLIC_KEY_PATTERN, WIDGET_SCRIPT_PATH, WIDGET_STYLESHEET_PATH } from '@pluma/common/widgets';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { files, widgets } from '../../db/schema';
import { publicBaseUrl } from '../../platform/http/public-url';
import { imageUrlOf } from './present';

/** Escapes text for HTML text and double-quoted attribute values. */
export const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page's policy: only this app's own files, no inline script, framed only by `ancestors`. */
export function embeddedCsp(ancestors: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    // The widget sets its colours through the CSSOM (style.setProperty), which CSP allows: no inline styles.
    "style-src 'self'",
    "img-src 'self' data: https:",
    "connect-src 'self'",
    "font-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors.length > 0 ? ancestors.join(' ') : "'none'"}`,
  ].join('; ');
}

function langOf(request: FastifyRequest, query: { lang?: unknown }): Lang {
  if (query.lang === 'es' || query.lang === 'en') return query.lang;
  const first = String(request.headers['accept-language'] ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('es') ? 'es' : 'en';
}

export async function widgetPageRoutes(app: FastifyInstance) {
  const { ctx } = app;

  app.get(CHAT_EMBEDDED_PATH, { schema: { hide: true } }, async (request, reply) => {
    const query = (request.query ?? {}) as { key?: unknown; lang?: unknown };
    const lang = langOf(request, query);
    const key = typeof query.key === 'string' && WIDGET_PUBLIC_KEY_PATTERN.test(query.key) ? query.key : null;
    const [row] = key
      ? await ctx.db
          .select({ widget: widgets, fileId: files.fileId, fileType: files.type, publicName: files.publicName })
          .from(widgets)
          .leftJoin(files, eq(files.fileId, widgets.imageFileId))
          .where(eq(widgets.publicKey, key))
          .limit(1)
      : [];
    // Helmet's X-Frame-Options would forbid any framing; frame-ancestors decides instead.
    reply.raw.removeHeader('x-frame-options');
    reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'strict-origin-when-cross-origin').type('text/html; charset=utf-8');
    if (!row) {
      reply.header('Content-Security-Policy', embeddedCsp([]));
      const text = escapeHtml(translate(lang, 'widget_not_found'));
      return reply.status(404).send(`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${text}</title></head><body><p>${text}</p></body></html>`);
    }
    const w = row.widget;
    reply.header('Content-Security-Policy', embeddedCsp(w.enabled ? w.allowedOrigins : []));
    const image = row.fileId !== null && row.fileType !== null ? imageUrlOf(publicBaseUrl(ctx), { fileId: row.fileId, type: row.fileType, publicName: row.publicName }) : null;
    const attribute = (name: string, value: string) => `data-${name}="${escapeHtml(value)}"`;
    const container = [
      `id="${WIDGET_CONTAINER_ID}"`,
      attribute('key', w.publicKey),
      attribute('mode', 'embedded'),
      attribute('accent', w.accentColor.replace(/^#/, '')),
      attribute('name', w.name),
      attribute('image', image ?? ''),
      attribute('lang', lang),
    ].join(' ');
    return reply.send(
      [
        '<!doctype html>',
        `<html lang="${lang}">`,
        '<head>',
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        `<title>${escapeHtml(w.name)}</title>`,
        `<link rel="stylesheet" href="${WIDGET_STYLESHEET_PATH}">`,
        '</head>',
        '<body>',
        `<div ${container}></div>`,
        `<script src="${WIDGET_SCRIPT_PATH}" defer></script>`,
        '</body>',
        '</html>',
      ].join('\n'),
    );
  });
}
