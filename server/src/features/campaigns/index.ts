// The campaigns feature's public face (eslint.config.js, feature boundaries).
export { campaignRoutes } from './routes';
// For documents and templates: what a campaign shares with the actor, who may change it, one campaign's access check.
export { requireCampaign, sharedThroughCampaigns, writesCampaigns } from './policy';
