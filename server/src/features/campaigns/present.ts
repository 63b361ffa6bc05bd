// The JSON of a campaign (spec part 2 §3 Campaign: campaign_id, name, description, thumbnail, user (name,
// last_name), user_id, organization_id, campaign_users, campaign_groups), with the actor's abilities.
import type { Campaign, CampaignDetail } from '@pluma/common/campaigns';
import { fileSrc } from '@pluma/common/files';
import type { ActorInOrganization } from '../../platform/auth/organization';
import { campaignPolicy } from './policy';
import type { CampaignGrants, CampaignListRow } from './service';

/** `actor`: acting in the campaign's organization (as the service returned it). */
export function presentCampaign(actor: ActorInOrganization, row: CampaignListRow): Campaign {
  const c = row.campaign;
  return {
    campaign_id: c.campaignId,
    name: c.name,
    description: c.description,
    thumbnail: row.thumbnail ? fileSrc(row.thumbnail) : null,
    thumbnail_file_id: row.thumbnail ? row.thumbnail.fileId : null,
    organization_id: c.organizationId,
    user_id: c.userId,
    user: row.owner ? { name: row.owner.name, last_name: row.owner.lastName } : null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    abilities: campaignPolicy.abilities(actor, c),
  };
}

export function presentCampaignDetail(actor: ActorInOrganization, row: CampaignListRow, grants: CampaignGrants): CampaignDetail {
  return { ...presentCampaign(actor, row), campaign_users: grants.users, campaign_groups: grants.groups };
}
