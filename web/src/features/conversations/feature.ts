// Chat (spec part 2 §2 "Conversations"): the conversation list at / and /conversations, the tag view, and
// the conversation screen at /conversations/{id} (also seen as /conversation/{id}).
import { IconMessages } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

const ConversationsPage = lazy(() => import('./ConversationsPage'));
const ConversationTagsPage = lazy(() => import('./ConversationTagsPage'));
const ConversationPage = lazy(() => import('../chat/ConversationPage'));

export const conversationsFeature: FeatureDefinition = {
  id: 'conversations',
  routes: [
    { path: '/', component: ConversationsPage },
    { path: '/conversations', component: ConversationsPage },
    { path: '/conversation', component: ConversationsPage },
    { path: '/conversation/tags', component: ConversationTagsPage },
    { path: '/conversation/tags/:tag', component: ConversationsPage },
    { path: '/conversations/:conversationId', component: ConversationPage },
    { path: '/conversation/:conversationId', component: ConversationPage },
  ],
  // spec part 2 §2: the sidebar's Chats entry comes first, with no setting to switch it off.
  tabs: [{ id: 'chats', labelKey: 'breadcrumbs.conversations', to: '/conversations', icon: IconMessages, order: 0 }],
};
