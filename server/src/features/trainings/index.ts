// The trainings feature's public face: what other features may use (eslint.config.js, feature boundaries).
// Chat and outputs read an avatar's chosen model with selectedTrainingModel().
export { trainingRoutes } from './routes';
export { selectedTrainingModel } from './service';
export { requireAvatar as requireOwnAvatar } from './avatar-scope';
export { trainingPolicy } from './policy';
