// The super-fetch feature's public face (eslint.config.js, feature boundaries).
export { superFetchRoutes } from './routes';
