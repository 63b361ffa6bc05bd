// The auth feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { accountLimits } from './account-limits';
export { MINUTE_MS, SIGNUP_RECOVERY_PER_MINUTE } from './rate-limits';
export { signup } from './service';
