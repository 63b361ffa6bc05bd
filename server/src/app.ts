// Builds the Fastify app: plugins, then every feature's routes (DESIGN.md §3).
import helmet from 'helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
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
import { appCspDirectives } from './platform/http/csp';
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
      directives: appCspDirectives(payments, ctx.env.CSP_EXTRA_ORIGINS),
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
    // Registered schemas (recursive ones such as DocumentBlock) become components.schemas, which their $refs name.
    transformObject: jsonSchemaTransformObject,
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
