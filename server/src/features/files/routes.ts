// /api/files (spec part 1 §7, part 2 §7): upload, read, replace, delete; public images by name.
import { fileResponse, isImageFileType } from '@pluma/common/files';
import { idParam, isDbId, text } from '@pluma/common/schema-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { notFound } from '../../platform/http/errors';
import { readMultipartUpload } from './multipart-http';
import { contentDisposition } from '../../platform/http/content-disposition';
import { presentFile } from './present';
import { deleteFile, openFile, openPublicFile, replaceFile, storeUpload, type FileRow } from './service';

const tags = ['files'];
/** GET /files/{ref}: the owner's token for a numeric id, none for a public name. */
const security: Record<string, string[]>[] = [{}, { bearer: [] }];
const fileIdParams = z.object({ id: idParam() });
const fileRefParams = z.object({ ref: text().min(1).max(200) });
const NUMERIC_REF = /^\d{1,10}$/;
const PUBLIC_REF = /^([A-Za-z0-9_-]{16,64})\.([a-z0-9]{2,5})$/;
const uploadLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };

/** Stored files are served as data, never as something the browser could run. */
function sendStored(reply: FastifyReply, request: FastifyRequest, file: FileRow, body: Readable, isPublic: boolean) {
  const image = isImageFileType(file.type);
  reply
    .header('Content-Type', file.mime)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', contentDisposition(image ? 'inline' : 'attachment', file.name))
    .header('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox");
  if (isPublic) {
    const etag = `"${file.fileId}-${file.updatedAt.getTime()}"`;
    // Public images appear on the landing page and in embedded widgets on other sites.
    reply.header('Cache-Control', 'public, max-age=3600').header('ETag', etag).header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (request.headers['if-none-match'] === etag) {
      body.destroy();
      return reply.status(304).send();
    }
  } else {
    reply.header('Cache-Control', 'private, no-store');
  }
  return reply.header('Content-Length', String(file.size)).send(body);
}

export async function fileRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.post(
    '/files',
    {
      ...signedIn(app, { tags, consumes: ['multipart/form-data'], response: { 201: fileResponse } }),
      config: uploadLimit,
    },
    async (request, reply) => {
      const { upload, fields } = await readMultipartUpload(request);
      const row = await storeUpload({ ctx, actor: actorOf(request), upload, isPublic: fields.public === 'true' });
      return reply.status(201).send(presentFile(actorOf(request), row));
    },
  );

  // One route for both forms (spec part 1 §7): /files/{id} with the owner's token, /files/{name}.{type} public.
  app.get(
    '/files/:ref',
    {
      preHandler: async (request, reply) => {
        if (NUMERIC_REF.test((request.params as { ref: string }).ref)) await app.authenticate(request, reply);
      },
      schema: { tags, security, params: fileRefParams },
    },
    async (request, reply) => {
      const { ref } = request.params;
      if (NUMERIC_REF.test(ref)) {
        const fileId = Number(ref);
        if (!isDbId(fileId)) throw notFound();
        const { file, body } = await openFile({ ctx, actor: actorOf(request), fileId });
        return sendStored(reply, request, file, body, false);
      }
      const match = PUBLIC_REF.exec(ref);
      if (!match) throw notFound();
      const { file, body } = await openPublicFile({ ctx, publicName: match[1], type: match[2] });
      return sendStored(reply, request, file, body, true);
    },
  );

  app.put(
    '/files/:id',
    {
      ...signedIn(app, { tags, params: fileIdParams, consumes: ['multipart/form-data'], response: { 200: fileResponse } }),
      config: uploadLimit,
    },
    async (request) => {
      const { upload } = await readMultipartUpload(request);
      return presentFile(actorOf(request), await replaceFile({ ctx, actor: actorOf(request), fileId: request.params.id, upload }));
    },
  );

  app.delete(
    '/files/:id',
    signedIn(app, { tags, params: fileIdParams }),
    async (request, reply) => {
      await deleteFile({ ctx, actor: actorOf(request), fileId: request.params.id });
      return reply.status(204).send();
    },
  );
}
