// The users feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { storedSignupPhone } from './phone';
export { publicBaseUrl } from './public-url';
export { impersonatorOf, PAID_INVOICE_STATUSES, PAID_PURCHASE_STATUSES } from './admin-service';
export { createResetLink, sendResetPasswordLink } from './recovery';
export { findUserByEmail, loadCurrentUser } from './service';
export { aiKeyRequired, hasUserAiKey, requireUserAiKey } from './ai-key-service';
