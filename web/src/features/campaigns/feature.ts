// The campaigns feature (issue 15): routes and tabs are added here.
import type { FeatureDefinition } from '../../app/registry';

export const campaignsFeature: FeatureDefinition = {
  id: 'campaigns',
};
