// The campaigns feature's public face (eslint.config.js, feature boundaries).
export { campaignRoutes } from './routes';
// For documents and templates: what a campaign shares with the actor, and one campaign's access check.
export { can as canOnCampaign, requireCampaign, sharedThroughCampaigns } from './policy';
