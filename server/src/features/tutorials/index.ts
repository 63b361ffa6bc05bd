// The tutorials feature's public face (eslint.config.js, feature boundaries).
export { tutorialRoutes } from './routes';
export { seedTutorials } from './seed';
