// The widgets feature's public face (eslint.config.js, feature boundaries).
export { widgetRoutes } from './routes';
export { widgetPageRoutes } from './embedded-routes';
