// The topics and hashtags generators (spec part 2 §2 "Topics and hashtags"): /topics and /hashtags; their
// tabs show only when topics_enabled / hashtags_enabled are on (spec part 1 §2 "Main navigation tabs", in the
// spec's order: … Documents, Hashtags, Topics, Chat Widget …), in Personal and inside an organization.
import { IconBulb, IconHash } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const ideasFeature: FeatureDefinition = {
  id: 'ideas',
  routes: [
    { path: '/topics', component: lazy(() => import('./IdeasPage').then((m) => ({ default: m.TopicsPage }))) },
    { path: '/hashtags', component: lazy(() => import('./IdeasPage').then((m) => ({ default: m.HashtagsPage }))) },
  ],
  tabs: [
    { id: 'hashtags', labelKey: 'breadcrumbs.hashtags', to: '/hashtags', icon: IconHash, configKey: 'hashtags_enabled', order: 50 },
    { id: 'topics', labelKey: 'breadcrumbs.topics', to: '/topics', icon: IconBulb, configKey: 'topics_enabled', order: 55 },
  ],
};
