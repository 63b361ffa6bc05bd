// /api/appconfig (spec part 1 §7): public list for every visitor, admin view, reveal and save for admins.
import { adminConfigResponse, configKeyTestRequest, configKeyTestResponse, publicConfigResponse, revealConfigRequest, revealConfigResponse, updateConfigRequest } from '@pluma/common/appconfig';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditRequest } from '../../platform/http/audit';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { testConfigKey } from './key-tests';
import { adminConfig, publicConfig, revealConfigValue, updateConfig } from './service';

const tags = ['appconfig'];

export async function appConfigRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get(
    '/appconfig',
    {
      config: { rateLimit: { max: 300, timeWindow: '1 minute' } },
      schema: { tags, response: { 200: publicConfigResponse, 304: z.null().describe('Not modified') } },
    },
    async (request, reply) => {
      const entries = await publicConfig(ctx);
      // Fetched on every app start (spec part 2 §7): revalidate with an ETag so unchanged settings cost a 304.
      const etag = `"${createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 27)}"`;
      reply.header('ETag', etag).header('Cache-Control', 'public, no-cache');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send(null);
      return entries;
    },
  );

  app.get(
    '/appconfig/admin',
    signedIn(app, { tags, response: { 200: adminConfigResponse } }, { staff: 'admin' }),
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return adminConfig({ ctx, actor: actorOf(request) });
    },
  );

  app.post(
    '/appconfig/admin/reveal',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      ...signedIn(app, { tags, body: revealConfigRequest, response: { 200: revealConfigResponse } }, { staff: 'admin' }),
    },
    async (request, reply) => {
      const entry = await revealConfigValue({ ctx, actor: actorOf(request), key: request.body.key });
      // The audit row names the key, never the value; it replaces the generic row of requireStaff.
      await auditRequest(ctx.db, request, { key: entry.key });
      request.staffAudit = false;
      reply.header('Cache-Control', 'no-store');
      return entry;
    },
  );

  app.post(
    '/appconfig/admin/test',
    {
      // Each test is a call to the provider: a few a minute per admin are plenty (counted once signed in and valid).
      config: {
        rateLimit: { max: 20, timeWindow: '1 minute', hook: 'preHandler', keyGenerator: (request: FastifyRequest) => `config-key-test:${request.actor?.user.userId ?? request.ip}` },
      },
      ...signedIn(app, { tags, body: configKeyTestRequest, response: { 200: configKeyTestResponse } }, { staff: 'admin' }),
    },
    async (request, reply) => {
      const result = await testConfigKey({ ctx, actor: actorOf(request), key: request.body.key, typed: request.body.value });
      // The audit row names the key and the outcome, never a typed value.
      await auditRequest(ctx.db, request, { key: request.body.key, ok: result.ok });
      request.staffAudit = false;
      reply.header('Cache-Control', 'no-store');
      return result;
    },
  );

  app.put(
    '/appconfig',
    signedIn(app, { tags, body: updateConfigRequest, response: { 200: adminConfigResponse } }, { staff: 'admin' }),
    async (request, reply) => {
      const actor = actorOf(request);
      const keys = await updateConfig({ ctx, actor, changes: request.body });
      await auditRequest(ctx.db, request, { keys });
      request.staffAudit = false;
      reply.header('Cache-Control', 'no-store');
      return adminConfig({ ctx, actor });
    },
  );
}
