// The super-fetch feature (issue 14): routes and tabs are added here.
import type { FeatureDefinition } from '../../app/registry';

export const superFetchFeature: FeatureDefinition = {
  id: 'super-fetch',
};
