// Messages across conversations (spec part 2 §7 "Messages"): the /messages screen with its sidebar
// entry, and the public page of a shared message at /shared/{token} (standalone: no shell, no sign-in).
import { IconStar } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

const MessagesPage = lazy(() => import('./MessagesPage'));
const SharedMessagePage = lazy(() => import('./SharedMessagePage'));

export const messagesFeature: FeatureDefinition = {
  id: 'messages',
  routes: [{ path: '/messages', component: MessagesPage }],
  standaloneRoutes: [{ path: '/shared/:token', component: SharedMessagePage }],
  // Right after Chats: the messages come from the conversations.
  tabs: [{ id: 'messages', labelKey: 'breadcrumbs.messages', to: '/messages', icon: IconStar, order: 1 }],
};
