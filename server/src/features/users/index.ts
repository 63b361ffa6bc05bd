// The users feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { storedSignupPhone } from './phone';
// Moved to platform/http/public-url.ts (it needs no feature); kept here for the importers not yet moved.
export { publicBaseUrl } from '../../platform/http/public-url';
export { PAID_INVOICE_STATUSES, PAID_PURCHASE_STATUSES } from './admin-service';
export { createResetLink, sendOrganizationInvite, sendResetPasswordLink } from './recovery';
export { findUserByEmail, impersonatorOf, loadCurrentUser } from './queries';
export { hasUserAiKey } from './ai-key-service';
export { aiKeyRequired, requireUserAiKey } from './ai-keys';
export { touchLastUsed } from './service';
// issue 33 item 1: phone sign-in finds the account as the staff phone lookup does.
export { findUserByPhone } from './queries';
