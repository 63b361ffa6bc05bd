// The workflows feature's public face (eslint.config.js, feature boundaries).
export { workflowRoutes } from './routes';
export { stepMessage } from './service';
export { seedWorkflows } from './seed';
