// /api/messages (spec part 2 §7). Thin: validate → authenticate → service (ids checked against the actor) → present.
import { deletedResponse } from '@pluma/common/conversations';
import {
  createMessageRequest,
  createMessageResponse,
  enhanceResponse,
  exportMessageRequest,
  listMessagesQuery,
  message,
  messageIdParams,
  messagePage,
  updateMessageRequest,
} from '@pluma/common/messages-api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/auth/guard';
import { renderDocx } from './export/docx';
import { renderPdf } from './export/pdf';
import { startInterruptedSweep } from './interrupted';
import { abortAllGenerations } from './registry';
import { createMessage, deleteMessage, listMessages, updateMessage } from './service';

const tags = ['messages'];
const security = [{ bearer: [] }];
const exportLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

export async function messageRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  // Generations outlive requests but not the process: on close they stop and save as interrupted.
  const stopSweep = startInterruptedSweep(ctx, (err) => app.log.error({ err }, 'marking stale messages failed'));
  app.addHook('preClose', async () => {
    stopSweep();
    await abortAllGenerations(ctx);
  });

  app.post(
    '/messages',
    {
      preHandler: [app.authenticate],
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        body: createMessageRequest,
        response: { 200: createMessageResponse, 201: createMessageResponse, 202: enhanceResponse },
      },
    },
    async (request, reply) => {
      const outcome = await createMessage(ctx, actorOf(request), request.body, request.log);
      const status = outcome.kind === 'created' ? 201 : outcome.kind === 'continued' ? 200 : 202;
      return reply.status(status).send(outcome.body);
    },
  );

  app.get(
    '/messages/conversation/:id',
    { preHandler: [app.authenticate], schema: { tags, security, params: z.object({ id: z.coerce.number().int().positive() }), querystring: listMessagesQuery, response: { 200: messagePage } } },
    async (request) => listMessages(ctx, actorOf(request).user, request.params.id, request.query),
  );

  app.put(
    '/messages',
    { preHandler: [app.authenticate], schema: { tags, security, body: updateMessageRequest, response: { 200: message } } },
    async (request) => updateMessage(ctx, actorOf(request).user, request.body),
  );

  app.delete(
    '/messages/:id',
    { preHandler: [app.authenticate], schema: { tags, security, params: messageIdParams, response: { 200: deletedResponse } } },
    async (request) => {
      await deleteMessage(ctx, actorOf(request).user, request.params.id);
      return { deleted: true as const };
    },
  );

  app.post(
    '/messages/pdf',
    { preHandler: [app.authenticate], config: exportLimit, schema: { tags, security, body: exportMessageRequest } },
    async (request, reply) => {
      const pdf = await renderPdf(request.body.text);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', 'attachment; filename="message.pdf"')
        .send(pdf);
    },
  );

  app.post(
    '/messages/word',
    { preHandler: [app.authenticate], config: exportLimit, schema: { tags, security, body: exportMessageRequest } },
    async (request, reply) => {
      const docx = await renderDocx(request.body.text);
      return reply
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')
        .header('Content-Disposition', 'attachment; filename="message.docx"')
        .send(docx);
    },
  );
}
