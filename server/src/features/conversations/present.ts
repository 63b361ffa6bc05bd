// The JSON of a conversation (spec part 2 §3): exactly these fields leave the server.
import type { Conversation } from '@pluma/common/conversations';
import type { files } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { conversationPolicy, type ConversationRow } from './policy';

export type FileRow = typeof files.$inferSelect;

export function presentConversation(actor: Actor, row: ConversationRow, file: Pick<FileRow, 'fileId' | 'name' | 'type'> | null): Conversation {
  return {
    conversation_id: row.conversationId,
    name: row.name,
    model: row.model,
    archived: row.archived,
    tags: row.tags,
    avatar_id: row.avatarId,
    organization_id: row.organizationId,
    // Files are served by the files feature at GET /api/files/{id} (owner only).
    file: file ? { file_id: file.fileId, name: file.name, type: file.type, src: `/api/files/${file.fileId}` } : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    abilities: conversationPolicy.abilities(actor, row),
  };
}
