// The users feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { storedSignupPhone } from './phone';
export { publicBaseUrl } from './public-url';
export { impersonatorOf } from './admin-service';
export { sendResetPasswordLink } from './recovery';
export { findUserByEmail, loadCurrentUser } from './service';
