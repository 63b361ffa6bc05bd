// The ideas feature (issue 14): routes and tabs are added here.
import type { FeatureDefinition } from '../../app/registry';

export const ideasFeature: FeatureDefinition = {
  id: 'ideas',
};
