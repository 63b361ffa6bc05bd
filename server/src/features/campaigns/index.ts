// The campaigns feature's public face (eslint.config.js, feature boundaries).
export { campaignRoutes } from './routes';
