// The appconfig feature's public face (eslint.config.js, feature boundaries): the feature switches' gate.
export { FEATURE_SWITCHES, featureDisabled, featureGate, featureSwitches, featureSwitchesChanged, requireFeature } from './feature-gate';
export type { FeatureSwitch, FeatureSwitches } from './feature-gate';
