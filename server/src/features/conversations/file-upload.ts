// POST /api/conversations/file/{id} (spec part 2 §7): a multipart `file` stored like every upload (type
// sniffed, owner recorded) by the files feature, then set as the conversation's file.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { Conversation } from '@pluma/common/conversations';
import { actorOf } from '../../platform/auth/guard';
import { readMultipartUpload, storeUpload } from '../files';
import { requireConversation } from './policy';
import { setConversationFile } from './service';

export async function attachConversationFile(ctx: AppContext, request: FastifyRequest, conversationId: number): Promise<Conversation> {
  const actor = actorOf(request);
  // The conversation is checked before the upload is read or stored: another user's id stores nothing.
  await requireConversation(ctx.db, actor, conversationId, 'update');
  const { upload } = await readMultipartUpload(request);
  const file = await storeUpload({ ctx, actor, upload });
  return setConversationFile({ actor, db: ctx.db, conversationId, fileId: file.fileId });
}
