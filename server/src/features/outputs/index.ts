// The outputs feature's public face (eslint.config.js, feature boundaries).
export { outputRoutes } from './routes';
export { closeAbandonedOutputs } from './abandoned';
