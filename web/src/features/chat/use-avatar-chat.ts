// The conversation's avatar on the chat screen (spec part 2 §2 "Conversations"): the avatar chosen in the
// prompt box answers the next messages (POST /messages avatar_id; the server keeps it as the conversation's
// avatar), and an empty conversation with an avatar is greeted once per session: 'Hola' is sent for it.
import type { Conversation } from '@pluma/common/conversations';
import { useCallback, useEffect, useState } from 'react';

/** spec part 2 §2: "Auto-greeting: 'Hola' is sent once per session for an avatar on an empty conversation." */
export const AVATAR_GREETING = 'Hola';
const greetedKey = (conversationId: number) => `pluma.avatarGreeted.${conversationId}`;

/** True the first time in this browser session (tab) for this conversation; marks it. */
export function takeGreeting(conversationId: number): boolean {
  try {
    const storage = window.sessionStorage;
    if (storage.getItem(greetedKey(conversationId))) return false;
    storage.setItem(greetedKey(conversationId), '1');
    return true;
  } catch {
    // No session storage (private mode): greet, at most once per screen (the effect's own guard).
    return true;
  }
}

interface ChatForAvatar {
  state: { loaded: boolean; messages: readonly unknown[] };
  generating: boolean;
  send: (content: string, options?: { avatar_id?: number | null; file_ids?: number[]; learnFromPrevResponse?: boolean; searchOnInternet?: boolean }) => Promise<boolean>;
}

export function useAvatarChat(conversation: Conversation, chat: ChatForAvatar) {
  const [avatarId, setAvatarId] = useState<number | null>(conversation.avatar_id);
  // The server's value when it changes (after a send, or elsewhere); a refetch of the same value keeps the
  // choice (adjusted while rendering, React's pattern for state that follows a prop).
  const [serverAvatar, setServerAvatar] = useState<number | null>(conversation.avatar_id);
  if (serverAvatar !== conversation.avatar_id) {
    setServerAvatar(conversation.avatar_id);
    setAvatarId(conversation.avatar_id);
  }

  const { send: sendMessage } = chat;
  const conversationAvatar = conversation.avatar_id;
  // Without an avatar on either side nothing is added to the request (the plain send path).
  const send = useCallback(
    // Web search (issue 32) goes with the avatar's answer the same way as in any chat.
    (content: string, options: { file_ids?: number[]; searchOnInternet?: boolean } = {}) =>
      sendMessage(content, avatarId === null && conversationAvatar === null ? options : { ...options, avatar_id: avatarId }),
    [sendMessage, avatarId, conversationAvatar],
  );

  const empty = chat.state.loaded && chat.state.messages.length === 0;
  const conversationId = conversation.conversation_id;
  useEffect(() => {
    if (avatarId === null || !empty || chat.generating) return;
    if (takeGreeting(conversationId)) void send(AVATAR_GREETING);
    // Once an avatar meets an empty conversation; `send` and `generating` changing must not greet again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [avatarId, empty, conversationId]);

  return { avatarId, setAvatarId, send };
}
