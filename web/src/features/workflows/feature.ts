// Workflows (spec part 2 §2 "Workflows"; issue 14 item 3): the workflows admins built (/workflows, its
// detail with Start, the admin editor), the user's runs (/user_workflows, a run's detail) and each step's
// output chat. The spec's main tabs do not list Workflows; the tab follows Templates (a workflow is a chain
// of templates) and shows only when templates_enabled is on (docs/decisions.md "Workflows").
import { IconRoute } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

const WorkflowEditorPage = lazy(() => import('./WorkflowEditorPage'));

export const workflowsFeature: FeatureDefinition = {
  id: 'workflows',
  routes: [
    { path: '/workflows', component: lazy(() => import('./WorkflowsPage')) },
    { path: '/workflows/new', component: WorkflowEditorPage, staffRole: 'admin' },
    { path: '/workflows/:workflowId', component: lazy(() => import('./WorkflowPage')) },
    { path: '/workflows/:workflowId/edit', component: WorkflowEditorPage, staffRole: 'admin' },
    { path: '/user_workflows', component: lazy(() => import('./UserWorkflowsPage')) },
    { path: '/user_workflows/:userWorkflowId', component: lazy(() => import('./UserWorkflowPage')) },
    { path: '/user_workflows/:userWorkflowId/conversation/:conversationId', component: lazy(() => import('./StepChatPage')) },
  ],
  tabs: [{ id: 'workflows', labelKey: 'breadcrumbs.workflows', to: '/workflows', icon: IconRoute, configKey: 'templates_enabled', order: 31 }],
};
