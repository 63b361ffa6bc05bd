// What other features use of conversations (features meet through index.ts): the conversation calls,
// the model choice, the sidebar and start-a-chat box, and the edit and delete modals (loaded when first
// opened, lazy-modals.ts).
export { CONVERSATIONS_KEY, useConversation, useCreateConversation, useUpdateConversation, useUploadConversationFile } from './conversations-api';
export { ConversationSidebar } from './ConversationSidebar';
export { ConversationFormModal, DeleteConversationModal } from './lazy-modals';
export { toModelValue, UNSET_MODEL, useModels } from './models-api';
export { StartChatBox } from './StartChatBox';
export { useModelOptions } from './use-model-options';
