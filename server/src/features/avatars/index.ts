// The avatars feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { avatarRoutes } from './routes';
export { ensureDefaultAvatar } from './service';
export { avatarPolicy, sharedPublicly } from './policy';
export type { AvatarRow } from './policy';
