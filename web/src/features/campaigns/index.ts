// What other features use of campaigns (features meet through index.ts).
export { useCampaignResources } from './campaigns-api';
