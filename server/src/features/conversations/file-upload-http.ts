// POST /api/conversations/file/{id} (spec part 2 §7): a multipart `file` stored like every upload (type
// sniffed, owner recorded) by the files feature, then set as the conversation's file. A text-like file
// (txt, md, csv, docx, pptx, pdf) is read and indexed by the ingestion pipeline in a background job (issue 27),
// like an avatar's: its status (GET /api/files/{id}/index-status) ends ready or failed with the reason.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { Conversation } from '@pluma/common/conversations';
import { actorOf } from '../../platform/auth/guard';
import { readMultipartUpload, storeUpload } from '../files';
import { isKnowledgeFileType } from '../ingestion';
import { queueFileIndexing } from '../knowledge';
import { conversationPolicy } from './policy';
import { presentConversation } from './present';
import { setConversationFile } from './service';

export async function attachConversationFile(ctx: AppContext, request: FastifyRequest, conversationId: number): Promise<Conversation> {
  const actor = actorOf(request);
  // The conversation is checked before the upload is read or stored: another user's id stores nothing.
  await conversationPolicy.require(ctx.db, actor, conversationId, 'update');
  const { upload } = await readMultipartUpload(request);
  const file = await storeUpload({ ctx, actor, upload });
  if (isKnowledgeFileType(file.type)) await queueFileIndexing({ ctx, fileId: file.fileId, language: actor.user.lang ?? undefined });
  const updated = await setConversationFile({ actor, db: ctx.db, conversationId, fileId: file.fileId });
  return presentConversation(actor, updated.row, updated.file);
}
