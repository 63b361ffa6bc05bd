// Every feature of the web app. A new feature adds its definition here (routes, tabs, menus) and the
// shell picks it up; see app/registry.ts for the shape.
import type { FeatureDefinition } from '../app/registry';
import { accessFeature } from './access/feature';
import { accountFeature } from './account/feature';
import { conversationsFeature } from './conversations/feature';
import { legalFeature } from './legal/feature';
import { messagesFeature } from './messages/feature';
import { pricingFeature } from './pricing/feature';

export const features: FeatureDefinition[] = [accountFeature, accessFeature, pricingFeature, legalFeature, conversationsFeature, messagesFeature];
