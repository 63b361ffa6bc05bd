// Tutorials (spec part 2 §2 "Tutorials"; issue 15 item 5): /tutorials lists them by language with
// thumbnails (staff admins also create, edit, order and delete there), /tutorials/{tutorial_id} plays one.
// The Tutorials tab shows when tutorials_enabled is on, last of the tabs (spec part 2 §2 tab order).
import { IconSchool } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const tutorialsFeature: FeatureDefinition = {
  id: 'tutorials',
  routes: [
    { path: '/tutorials', component: lazy(() => import('./TutorialsPage')) },
    { path: '/tutorials/:tutorialId', component: lazy(() => import('./TutorialPage')) },
  ],
  tabs: [{ id: 'tutorials', labelKey: 'breadcrumbs.tutorials', to: '/tutorials', icon: IconSchool, configKey: 'tutorials_enabled', order: 90 }],
};
