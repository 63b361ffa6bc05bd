// The templates feature (issue 14): routes and tabs are added here.
import type { FeatureDefinition } from '../../app/registry';

export const templatesFeature: FeatureDefinition = {
  id: 'templates',
};
