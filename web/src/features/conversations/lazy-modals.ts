// The edit and delete modals of a conversation, loaded when first opened: the chat screen runs less script
// before its messages show (issue 9), and the form rules and schemas they bring come with them.
import { lazy } from 'react';

export const ConversationFormModal = lazy(() => import('./ConversationFormModal').then((m) => ({ default: m.ConversationFormModal })));
export const DeleteConversationModal = lazy(() => import('./DeleteConversationModal').then((m) => ({ default: m.DeleteConversationModal })));
