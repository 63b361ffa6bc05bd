// The templates feature's public face (eslint.config.js, feature boundaries).
export { templateRoutes } from './routes';
export { seedTemplates } from './seed';
export { canReadPrompt, templatePolicy } from './policy';
export { fillTemplateForMessage, templateLabel, type FilledTemplate } from './service';
