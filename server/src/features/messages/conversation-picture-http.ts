// What the server needs to draw a signed-in visitor's open conversation before the app's scripts run
// (issue 9 item 10: LCP of an open conversation on a slow phone; platform/http/first-paint.ts draws it).
// The page request carries the session token in the first-paint cookie (web/src/api/token-store.ts); it is
// read here exactly as a bearer token is, and only for this picture: no API route accepts the cookie.
// Drawn only where the app will show the same screen first: the Personal context (a user with a default
// organization may start in it, spec part 2 §4), a user with access, a conversation the user may see —
// each read as the API answers it (GET /api/users, /api/conversations/conversation/{id},
// /api/messages/conversation/{id}?limit=20), so the picture shows what the app then shows.
import type { Conversation } from '@pluma/common/conversations';
import type { MessagePage } from '@pluma/common/messages-api';
import type { CurrentUser } from '@pluma/common/users';
import type { FastifyInstance } from 'fastify';
import { actorFromToken } from '../../platform/auth/guard';
import { getConversation, presentConversation } from '../conversations';
import { loadCurrentUser } from '../users';
import { presentMessages } from './avatar-citations';
import { listMessages } from './service';

/** The page the app's first request asks for (index.html's early requests, features/chat/chat-api.ts). */
const FIRST_PAGE = 20;

export interface ConversationPictureData {
  user: CurrentUser;
  conversation: Conversation;
  page: MessagePage;
}

/** The records for the picture of conversation `conversationId` for the session `token`, or null (none is drawn). */
export async function conversationPicture(app: FastifyInstance, token: string, conversationId: number): Promise<ConversationPictureData | null> {
  const actor = await actorFromToken(app, token);
  if (!actor || actor === 'expired' || actor.organization) return null;
  const db = app.ctx.db;
  const user = await loadCurrentUser({ db, userId: actor.user.userId });
  if (!user.has_access || user.default_organization) return null;
  try {
    const [found, page] = await Promise.all([
      getConversation({ actor, db, conversationId }),
      listMessages({ actor, db, conversationId, query: { limit: FIRST_PAGE } }),
    ]);
    const conversation = presentConversation(actor, found.row, found.file);
    return { user, conversation, page: { messages: await presentMessages(db, page.rows), next_cursor: page.nextCursor } };
  } catch {
    // Not the user's to see (404), or gone: the app shows what it shows, without a picture.
    return null;
  }
}
