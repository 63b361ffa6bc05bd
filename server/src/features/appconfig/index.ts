// The appconfig feature's public face (eslint.config.js, feature boundaries): the feature switches' gate.
export { FEATURE_SWITCHES, featureDisabled, featureSwitches, featureSwitchesChanged, requireFeature } from './feature-gate';
export { featureGate } from './feature-gate-routes';
export type { FeatureSwitch, FeatureSwitches } from './feature-gate';
