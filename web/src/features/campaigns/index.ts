// What other features use of campaigns (features meet through index.ts).
export { useCampaign, useCampaignResources } from './campaigns-api';
