// The JSON of a message (spec part 2 §3): exactly these fields leave the server.
import type { Message, MessageCitation, MessageFile, MessageStatus } from '@pluma/common/messages-api';
import type { messages } from '../../db/schema';
import { messageAbilities } from './policy';

export type MessageRow = typeof messages.$inferSelect;

/** `citations`: an avatar answer's passages (avatar-citations.ts); `files`: a prompt's attached files (attachments.ts). */
export function presentMessage(row: MessageRow, citations: MessageCitation[] = [], files: MessageFile[] = []): Message {
  return {
    message_id: row.messageId,
    conversation_id: row.conversationId,
    role: row.role === 'user' ? 'user' : 'assistant',
    content: row.content,
    prompt: row.prompt,
    model: row.model,
    favorite: row.favorite,
    finish_reason: row.finishReason,
    status: row.status as MessageStatus,
    error_code: row.errorCode,
    message_type_id: row.messageTypeId,
    user_message_id: row.userMessageId,
    avatar_id: row.avatarId,
    organization_id: row.organizationId,
    // A chat message is never a thread message: those are an avatar output's follow-ups (outputs/present.ts).
    isThread: false,
    deleteUserMsg: row.deleteUserMsg,
    saveOnConversation: row.saveOnConversation,
    words_charged: row.wordsCharged,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    citations,
    files,
    // Only an answer written with searchOnInternet carries these (features/web-search).
    ...(row.webSources ? { sources: row.webSources } : {}),
    ...(row.webSearchFailed ? { web_search_failed: true } : {}),
    abilities: messageAbilities(row),
  };
}
