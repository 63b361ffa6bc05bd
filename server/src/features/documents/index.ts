// The documents feature's public face (eslint.config.js, feature boundaries).
export { documentRoutes } from './routes';
