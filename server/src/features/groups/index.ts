// The groups feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { groupRoutes } from './routes';
