// Builds the Fastify app: plugins, then every feature's routes (DESIGN.md §3).
import helmet from 'helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { AppContext } from './context';
import { auditPlugin } from './platform/http/audit';
import { authPlugin } from './platform/auth/guard';
import { registerErrorHandling } from './platform/http/errors';
import { healthRoutes } from './platform/http/health';
import { sameHostWebSockets, scriptNonceSource } from './platform/http/index-html';
import { registerWebApp } from './platform/http/web-app';
import { featureRoutes } from './features';
import { publicConfig } from './features/appconfig/service';
import { paymentCspSources } from './features/payments';
import { conversationPicture } from './features/messages';
import { widgetPageRoutes } from './features/widgets';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export type App = FastifyInstance;

export async function buildApp(ctx: AppContext, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: ctx.env.LOG_LEVEL },
    genReqId: (req) => (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID(),
    trustProxy: ctx.env.TRUST_PROXY,
    bodyLimit: 2 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('ctx', ctx);
  registerErrorHandling(app);

  // Stripe's and PayPal's script, frame and connect origins (features/payments/checkout-config.ts).
  const payments = paymentCspSources(ctx.env);
  // helmet's middleware is built once here and run on every request. @fastify/helmet (DESIGN.md's choice)
  // rebuilt it — parsing every CSP directive — on each request: a tenth of a simple request's CPU in a profile.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Only scripts the server put on the page run: a fresh nonce per response (index-html.ts), given
        // to our own scripts and to the admin's tracking codes; 'strict-dynamic' extends trust to what
        // they load. No 'unsafe-inline', no host list: an injected script cannot run (docs/decisions.md).
        // The payment hosts are the fallback of browsers without 'strict-dynamic' (which ignores host lists).
        scriptSrc: ["'self'", scriptNonceSource, "'strict-dynamic'", ...payments.script],
        // Styles stay inline-capable: Mantine injects <style> elements and the admin's app_css is one.
        styleSrc: ["'self'", "'unsafe-inline'", 'https:'],
        // https: images: configured logos and pictures, tracking pixels. Images in AI answers load only
        // after a click (web MessageMarkdown), so a prompt-injected image cannot leak the conversation.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'blob:', 'https:'],
        // https: frames and connections: tracking codes (tag-manager frames, analytics beacons) and
        // payment SDKs; a frame or request needs a script to be of use, and no injected script runs.
        // The payment origins are listed too: the offline demo's stand-in is an http: origin.
        frameSrc: ["'self'", ...payments.frame, 'https:'],
        // WebSockets only to this host (Socket.IO), no longer to any ws:/wss: host.
        connectSrc: ["'self'", sameHostWebSockets, ...payments.connect, 'https:'],
        fontSrc: ["'self'", 'data:', 'https:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // PayPal's checkout opens a popup on paypal.com that reports back to this page through
    // window.opener; helmet's default `same-origin` cuts that link (the popup looks closed at once).
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined)));
  await app.register(rateLimit, {
    global: false,
    ...(ctx.services.redis ? { redis: ctx.services.redis, nameSpace: 'pluma-rl:' } : {}),
  });
  await app.register(multipart, { limits: { fileSize: ctx.env.MAX_UPLOAD_MB * 1024 * 1024, files: 1 } });
  await app.register(swagger, {
    openapi: { info: { title: 'Pluma API', version: '0.1.0' }, components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } } },
    transform: jsonSchemaTransform,
  });
  // The API docs page gets swagger-ui's own CSP (its scripts are its files on this origin), not the app's nonces.
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(authPlugin);
  await app.register(auditPlugin);

  await app.register(healthRoutes, { prefix: '/api' });
  // Baseline for `npm run bench` (bench/api-throughput.mjs): same plugins and hooks, no auth or database.
  if (process.env.BENCH_BARE_ROUTE === '1') app.get('/api/bench/bare', { schema: { hide: true } }, async () => ({ ok: true }));
  await app.register(featureRoutes, { prefix: '/api' });
  // The chat widget as a whole page (/chat-embedded), before the web app's catch-all.
  await app.register(widgetPageRoutes);
  // The built web app: static files (pre-compressed) and the per-request index.html.
  await registerWebApp(app, ctx, {
    publicConfig: () => publicConfig(ctx),
    conversationPicture: (token, conversationId) => conversationPicture(app, token, conversationId),
  });
  return app;
}
