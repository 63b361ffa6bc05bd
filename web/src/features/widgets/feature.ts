// The chat widget generator (spec part 2 §2 "Chat widget generator"; issue 15 item 3): /chat-widget-generator
// (the form, the generated code and the owner's widgets), /chat-widget-generator/{id} (that widget in the
// form) and /chat-widget-generator/{id}/conversations (its visitors' chats). The Chat Widget tab shows when
// chatwidget_enabled is on, never inside an organization (spec part 2 §2 "Main navigation tabs").
import { IconMessageChatbot } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

const WidgetGeneratorPage = lazy(() => import('./WidgetGeneratorPage'));

export const widgetsFeature: FeatureDefinition = {
  id: 'widgets',
  routes: [
    { path: '/chat-widget-generator', component: WidgetGeneratorPage },
    { path: '/chat-widget-generator/:widgetId', component: WidgetGeneratorPage },
    { path: '/chat-widget-generator/:widgetId/conversations', component: lazy(() => import('./WidgetConversationsPage')) },
  ],
  tabs: [{ id: 'chat-widget', labelKey: 'breadcrumbs.chat-widget-generator', to: '/chat-widget-generator', icon: IconMessageChatbot, configKey: 'chatwidget_enabled', hiddenInOrganization: true, order: 70 }],
};
