// What other features use of the chat (features meet through index.ts): the message list and its
// markdown, the chat hook, and the prompt rules of the start-a-chat box. The conversation screen is not
// here: chat/feature.ts routes it, loaded on demand.
export { ChatMessageList } from './ChatMessageList';
export { queueFirstPrompt } from './first-prompt';
export { MessageCitations } from './MessageCitations';
export { MessageMarkdown } from './MessageMarkdown';
export { canSend, isOverTokenLimit } from './prompt-rules';
export { useChat } from './use-chat';
