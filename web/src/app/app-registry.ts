// The registry built from the feature list (app/registry.ts describes it).
import { features } from '../features';
import { buildRegistry } from './registry';

export const registry = buildRegistry(features);
