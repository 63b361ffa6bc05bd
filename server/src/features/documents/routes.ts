// /api/documents (spec part 2 §7 "Documents"; issue 15 item 1). Thin: authenticate (and resolve the
// organization) → access gate (412 without access, like templates and avatars) → validate → service (scoped
// by policy.ts) → presented with abilities. GET /documents/{id}/campaigns/{campaignId} reads a document a
// campaign shares (through the campaigns feature's sharedThroughCampaigns), and PUT /documents?campaign_id=
// saves it there for those who may edit it through the campaign; POST /documents/avatar-output
// comes with the editor's generation tools.
import {
  createDocumentRequest,
  deletedDocumentResponse,
  document,
  documentBlocks,
  DOCUMENT_NAME_MAX,
  campaignDocumentParams,
  documentIdParams,
  documentList,
  listDocumentsQuery,
  updateDocumentRequest,
} from '@pluma/common/documents';
import { idParam, text } from '@pluma/common/schema-kit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { featureGate } from '../appconfig';
import { accessGate } from '../credits';
import { contentDisposition } from '../../platform/http/content-disposition';
import { documentToDocx } from './docx';
import { sanitizeBlocks } from './sanitize';
import { documentPolicy } from './policy';
import { presentDocument, presentDocumentSummary } from './present';
import { createDocument, deleteDocument, getCampaignDocument, getDocument, listDocuments, updateDocument } from './service';
import type { DocumentBlock } from '@pluma/common/documents';

const tags = ['documents'];
/** A document at the limit with its blocks is well under this; the default 1 MiB could refuse one. */
const SAVE_BODY_LIMIT = 6 * 1024 * 1024;
/** POST /documents/doc-converted: a name and the blocks to export (nothing saved). */
const convertDocumentRequest = z.object({ name: text().trim().min(1).max(DOCUMENT_NAME_MAX), blocks: documentBlocks });
/** PUT /documents?campaign_id=: the save of a campaign document from the campaign document page. */
const saveQuery = z.object({ campaign_id: idParam().optional(), organization_id: idParam().optional() });
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export async function documentRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  // documents_enabled off: every documents route is 404 feature_disabled (docs/decisions.md "Feature switches on the server").
  const access = { gates: [featureGate(app, 'documents_enabled'), accessGate(app)] };

  app.get('/documents', signedIn(app, { tags, querystring: listDocumentsQuery, response: { 200: documentList } }, access), async (request) => {
    const actor = actorOf(request);
    const { rows, total, ...page } = await listDocuments({ actor, db, options: request.query });
    return { documents: rows.map((r) => presentDocumentSummary(actor, r)), total: total.total, total_capped: total.capped, ...page };
  });
  const sendDocx = async (reply: FastifyReply, name: string, blocks: DocumentBlock[]) =>
    reply
      .header('Content-Type', DOCX_TYPE)
      .header('Content-Disposition', contentDisposition('attachment', `${name.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'document'}.docx`))
      .header('Cache-Control', 'private, no-store')
      .send(await documentToDocx(name, blocks));
  app.get('/documents/doc-converted/:id', signedIn(app, { tags, params: documentIdParams }, access), async (request, reply) => {
    const row = await documentPolicy.require(db, actorOf(request), request.params.id, 'export');
    return sendDocx(reply, row.name, row.blocks as DocumentBlock[]);
  });
  // An unsaved document as Word (the campaign document page's copy for a Member): the blocks sent, made safe
  // like a save's (sanitizeBlocks), nothing stored.
  app.post(
    '/documents/doc-converted',
    { ...signedIn(app, { tags, body: convertDocumentRequest }, access), bodyLimit: SAVE_BODY_LIMIT },
    async (request, reply) => sendDocx(reply, request.body.name, sanitizeBlocks(request.body.blocks)),
  );
  app.get('/documents/:id', signedIn(app, { tags, params: documentIdParams, response: { 200: document } }, access), async (request) => {
    const actor = actorOf(request);
    return presentDocument(actor, await getDocument({ actor, db, documentId: request.params.id }));
  });
  app.get(
    '/documents/:id/campaigns/:campaignId',
    signedIn(app, { tags, params: campaignDocumentParams, response: { 200: document } }, access),
    async (request) => {
      const actor = actorOf(request);
      return presentDocument(actor, await getCampaignDocument({ actor, db, documentId: request.params.id, campaignId: request.params.campaignId }));
    },
  );
  app.post(
    '/documents',
    { ...signedIn(app, { tags, body: createDocumentRequest, response: { 201: document } }, access), bodyLimit: SAVE_BODY_LIMIT },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(presentDocument(actor, await createDocument({ actor, db, input: request.body })));
    },
  );
  app.put(
    '/documents',
    { ...signedIn(app, { tags, querystring: saveQuery, body: updateDocumentRequest, response: { 200: document } }, access), bodyLimit: SAVE_BODY_LIMIT },
    async (request) => {
      const actor = actorOf(request);
      return presentDocument(actor, await updateDocument({ actor, db, input: request.body, campaignId: request.query.campaign_id }));
    },
  );
  app.delete('/documents/:id', signedIn(app, { tags, params: documentIdParams, response: { 200: deletedDocumentResponse } }, access), async (request) => {
    await deleteDocument({ actor: actorOf(request), db, documentId: request.params.id });
    return { deleted: true as const };
  });
}
