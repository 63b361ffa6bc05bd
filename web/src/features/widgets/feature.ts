// The chat widget generator (spec part 2 §2 "Chat widget generator"; issue 15 item 3). Filled in by the widgets work.
import type { FeatureDefinition } from '../../app/registry';

export const widgetsFeature: FeatureDefinition = {
  id: 'widgets',
  routes: [],
};
