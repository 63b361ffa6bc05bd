// GET /api/files/{id}/index-status: a file's indexing status for whoever may read the file (files policy);
// another user's file is a 404. Loading these routes also registers the indexing worker.
import { idParam } from '@pluma/common/schema-kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { files } from '../../db/schema';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { notFound } from '../../platform/http/errors';
import { readableFilesWhere } from '../files';
import { fileIndexStatuses, startIndexingWorker } from './indexing';
import { indexStatusResponse, presentIndexStatus } from './present';

const tags = ['files'];

export async function knowledgeRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const stopSweep = await startIndexingWorker(ctx, (err) => app.log.error({ err }, 'failing stalled file indexing failed'));
  app.addHook('preClose', async () => stopSweep());

  app.get(
    '/files/:id/index-status',
    signedIn(app, { tags, params: z.object({ id: idParam() }), response: { 200: indexStatusResponse } }),
    async (request) => {
      const fileId = request.params.id;
      const [file] = await ctx.db.select({ fileId: files.fileId }).from(files).where(readableFilesWhere(actorOf(request), fileId)).limit(1);
      if (!file) throw notFound();
      const [row] = await fileIndexStatuses({ ctx, fileIds: [fileId] });
      return presentIndexStatus(fileId, row);
    },
  );
}
