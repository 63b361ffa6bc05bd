// The conversation screen (spec part 2 §2 "Conversations"): /conversations/{id}, also seen as
// /conversation/{id}. The lists around it are the conversations feature's (conversations/feature.ts).
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

const ConversationPage = lazy(() => import('./ConversationPage'));

export const chatFeature: FeatureDefinition = {
  id: 'chat',
  routes: [
    { path: '/conversations/:conversationId', component: ConversationPage, noAccess: 'chat' },
    { path: '/conversation/:conversationId', component: ConversationPage, noAccess: 'chat' },
  ],
};
