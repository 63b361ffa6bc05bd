// /api/documents generation routes (issue 15 item 1; spec part 2 §7 POST /documents/avatar-output; contract A
// in the helpers' briefs). Thin: authenticate → access gate (412) → validate (JSON, or multipart with a `data`
// JSON part and an optional `file` for 'super_fetch') → generate.ts (the tools' own switches and scopes) → 202 with the generation; the markdown
// arrives as `document_output`.
import {
  avatarDocumentRequest,
  documentGenerateRequest,
  documentGeneration,
  documentGenerationList,
  documentGenerationParams,
  documentGenerationResponse,
  documentGenerationsQuery,
} from '@pluma/common/documents-generate';
import { documentIdParams } from '@pluma/common/documents';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { badRequest } from '../../platform/http/errors';
import { parseForm, parseJsonPart } from '../../platform/http/parse-form';
import { featureGate } from '../appconfig';
import { accessGate } from '../credits';
import { readMultipartUpload, type Upload } from '../files';
import { getDocumentGeneration, listDocumentGenerations, markGenerationApplied, startDocumentGeneration, stopDocumentGeneration } from './generate';
import { stopAllGenerations } from './generation';

const tags = ['documents'];
const formTypes = ['multipart/form-data', 'application/json'];
/** Each request is a provider call (within the words held); an editor clicking Generate stays far below this. */
const generationLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };
/** The document's text (200,000 characters at most, 4 bytes each in the worst case) with the rest. */
const BODY_LIMIT = 1024 * 1024;
/** The `data` part: the document's text JSON-escaped may double; the body limit bounds it too. */
const MAX_DATA_CHARS = 1_000_000;

/** The request's JSON body, or the `data` part and `file` of a multipart form. */
async function readForm(request: FastifyRequest): Promise<{ data: unknown; file: Upload | null }> {
  if (!request.isMultipart()) return { data: request.body ?? {}, file: null };
  let file: Upload | null = null;
  let json: string | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'file' && !file) file = { fileName: part.filename ?? '', bytes: await part.toBuffer() };
        // Unexpected files are read to the end (the parser waits for them) and dropped.
        else part.file.resume();
      } else if (part.fieldname === 'data' && typeof part.value === 'string' && part.value.length <= MAX_DATA_CHARS) {
        json = part.value;
      }
    }
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode) throw err;
    throw badRequest('upload_malformed');
  }
  let data: unknown = {};
  if (json !== null) {
    try {
      data = JSON.parse(json);
    } catch {
      throw badRequest('validation_error');
    }
  }
  return { data, file: file && file.bytes.length > 0 ? file : null };
}

export async function documentGenerationRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  // spec part 1 §2: with documents_enabled off the feature does not exist (404 feature_disabled).
  const access = { gates: [featureGate(app, 'documents_enabled'), accessGate(app)] };

  // Generations outlive requests but not the process: on close they stop and are saved as failed ('interrupted').
  app.addHook('preClose', () => stopAllGenerations(ctx));

  app.post(
    '/documents/avatar-output',
    { ...signedIn(app, { tags, consumes: formTypes, response: { 202: documentGenerationResponse } }, access), bodyLimit: BODY_LIMIT, config: generationLimit },
    async (request, reply) => {
      const form = await readForm(request);
      const input = parseForm(documentGenerateRequest, form.data);
      const generation = await startDocumentGeneration({ ctx, log: request.log, actor: actorOf(request), input, file: form.file });
      return reply.status(202).send({ generation });
    },
  );
  // spec part 2 §7 "Avatars": POST /avatars/user-message/document-request (multipart with file and JSON data):
  // a message to an avatar about a document — the `file` (.docx, .pdf, .pptx, .txt; read by the ingestion
  // pipeline) is the document given as context, `data` the message (avatarDocumentRequest). The same
  // generation as an 'avatar' kind of POST /documents/avatar-output; its answer comes as `document_output`.
  app.post(
    '/avatars/user-message/document-request',
    {
      ...signedIn(app, { tags: ['avatars'], consumes: ['multipart/form-data'], response: { 202: documentGenerationResponse } }, { gates: [featureGate(app, 'avatars_enabled'), accessGate(app)] }),
      config: generationLimit,
    },
    async (request, reply) => {
      const { upload, fields } = await readMultipartUpload(request);
      const data = parseForm(avatarDocumentRequest, parseJsonPart(fields.data));
      const input = parseForm(documentGenerateRequest, { kind: 'avatar', ...data });
      const generation = await startDocumentGeneration({ ctx, log: request.log, actor: actorOf(request), input, file: upload });
      return reply.status(202).send({ generation });
    },
  );
  app.get('/documents/generations/:generationId', signedIn(app, { tags, params: documentGenerationParams, response: { 200: documentGeneration } }, access), async (request) =>
    getDocumentGeneration({ db: ctx.db, actor: actorOf(request), generationId: request.params.generationId }),
  );
  app.get(
    '/documents/:id/generations',
    signedIn(app, { tags, params: documentIdParams, querystring: documentGenerationsQuery, response: { 200: documentGenerationList } }, access),
    async (request) => listDocumentGenerations({ db: ctx.db, actor: actorOf(request), documentId: request.params.id, unapplied: request.query.unapplied }),
  );
  app.post(
    '/documents/generations/:generationId/applied',
    signedIn(app, { tags, params: documentGenerationParams, response: { 200: documentGeneration } }, access),
    async (request) => markGenerationApplied({ db: ctx.db, actor: actorOf(request), generationId: request.params.generationId }),
  );
  // issue 30 item 1: the user's Stop. The generation ends 'stopped' with its text; idempotent.
  app.post(
    '/documents/generations/:generationId/stop',
    signedIn(app, { tags, params: documentGenerationParams, response: { 200: documentGeneration } }, access),
    async (request) => stopDocumentGeneration({ ctx, actor: actorOf(request), generationId: request.params.generationId }),
  );
}
