// The messages feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { conversationPicture, type ConversationPictureData } from './conversation-picture-http';
