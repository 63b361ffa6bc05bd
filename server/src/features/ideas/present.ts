// The JSON of one topics or hashtags generation (spec part 2 §2; message_type_id 2 hashtags, 3 topics).
import type { Idea } from '@pluma/common/ideas';
import type { Actor } from '../../platform/auth/actor';
import { ideaPolicy, type IdeaRow } from './policy';

export function presentIdea(actor: Actor, row: IdeaRow, avatarName: string | null): Idea {
  const messageTypeId = row.messageTypeId === 2 ? 2 : 3;
  return {
    idea_id: row.ideaId,
    message_type_id: messageTypeId,
    kind: messageTypeId === 2 ? 'hashtags' : 'topics',
    subject: row.subject,
    language: row.language === 'es' ? 'es' : 'en',
    count: row.count,
    items: row.items,
    avatar_id: row.avatarId,
    avatar_name: avatarName,
    createdAt: row.createdAt.toISOString(),
    abilities: ideaPolicy.abilities(actor, row),
  };
}
