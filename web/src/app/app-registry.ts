// The registry built from the feature list (platform/registry.ts describes it).
import { features } from '../features';
import { buildRegistry } from '../platform/registry';

export const registry = buildRegistry(features);
