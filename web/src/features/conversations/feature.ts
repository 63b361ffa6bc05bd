// Chat (spec part 2 §2 "Conversations"): the conversation list at / and /conversations, and the tag view.
// The conversation screen at /conversations/{id} is the chat feature's (chat/feature.ts).
import { IconMessages } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

const ConversationsPage = lazy(() => import('./ConversationsPage'));
const ConversationTagsPage = lazy(() => import('./ConversationTagsPage'));

export const conversationsFeature: FeatureDefinition = {
  id: 'conversations',
  routes: [
    { path: '/', component: ConversationsPage, noAccess: 'chat' },
    { path: '/conversations', component: ConversationsPage, noAccess: 'chat' },
    { path: '/conversation', component: ConversationsPage, noAccess: 'chat' },
    { path: '/conversation/tags', component: ConversationTagsPage, noAccess: 'chat' },
    { path: '/conversation/tags/:tag', component: ConversationsPage, noAccess: 'chat' },
  ],
  // spec part 2 §2: the sidebar's Chats entry comes first, with no setting to switch it off.
  tabs: [{ id: 'chats', labelKey: 'breadcrumbs.conversations', to: '/conversations', icon: IconMessages, order: 0 }],
};
