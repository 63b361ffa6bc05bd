// The ideas feature's public face (eslint.config.js, feature boundaries).
export { ideaRoutes } from './routes';
