// The history of a useChat() conversation wherever it is shown outside the chat screen: a template's apply
// screen, a workflow step's output chat.
import { MessageList } from './MessageList';
import type { useChat } from './use-chat';

export function ChatMessageList({ chat, busy = chat.generating }: { chat: ReturnType<typeof useChat>; busy?: boolean }) {
  return (
    <MessageList
      messages={chat.state.messages}
      hasOlder={chat.state.olderCursor !== null}
      loadingOlder={chat.loadingOlder}
      onLoadOlder={chat.loadOlder}
      busy={busy}
      onSaveEdit={chat.saveEdit}
      onToggleFavorite={chat.toggleFavorite}
      onAnswerAgain={chat.answerAgain}
    />
  );
}
