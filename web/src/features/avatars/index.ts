// What other features use of avatars (features meet through index.ts): the avatar and AI key calls, and
// the pieces of creating an avatar from a chat.
export { AiKeyPrompt } from './AiKeyPrompt';
export { AI_KEY_KEY, createAvatar, removeAiKey, saveAiKey, testAiKey, useAiKey, useAvatar, useAvatars } from './avatars-api';
export { useNewAvatar } from './use-new-avatar';
