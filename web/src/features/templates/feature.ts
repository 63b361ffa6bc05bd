// Templates (spec part 2 §2 "Templates"; issue 14 item 2): the browser with its tabs (/templates, /types,
// /tags) and drill-downs (/types/{type}, /tags/{tag}), the editor (/create-template, /edit-template/{id}) and
// the apply screens (/apply-template/{id}/{conversation_id}, /apply-avatar/{id}/{avatar_id}). The Templates
// tab shows only when templates_enabled is on, after Avatars and Super Fetch (spec part 2 §2 tab order).
import { IconTemplate } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

const TemplatesPage = lazy(() => import('./TemplatesPage'));
const TemplateEditorPage = lazy(() => import('./TemplateEditorPage'));
const ApplyTemplatePage = lazy(() => import('./ApplyTemplatePage'));

export const templatesFeature: FeatureDefinition = {
  id: 'templates',
  routes: [
    { path: '/templates', component: TemplatesPage },
    { path: '/templates/tags', component: TemplatesPage },
    { path: '/templates/types', component: TemplatesPage },
    { path: '/templates/tags/:tag', component: TemplatesPage },
    { path: '/templates/types/:type', component: TemplatesPage },
    { path: '/templates/create-template', component: TemplateEditorPage },
    { path: '/templates/edit-template/:templateId', component: TemplateEditorPage },
    { path: '/templates/apply-template/:templateId/:conversationId', component: ApplyTemplatePage },
    { path: '/templates/apply-avatar/:templateId/:avatarId', component: ApplyTemplatePage },
  ],
  tabs: [{ id: 'templates', labelKey: 'breadcrumbs.templates', to: '/templates', icon: IconTemplate, configKey: 'templates_enabled', order: 30 }],
};
