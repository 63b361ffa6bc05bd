// The conversations feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { assertOfferedModel } from './model-check';
export { conversationColumns, conversationPolicy, scopeParams, visibleToPrepared } from './policy';
export type { ConversationRow } from './policy';
export { getConversation } from './service';
export { presentConversation } from './present';
