// The JSON of a campaign (spec part 2 §3 Campaign: campaign_id, name, description, thumbnail, user (name,
// last_name), user_id, organization_id, campaign_users, campaign_groups), with the actor's abilities.
import type { Campaign, CampaignDetail } from '@pluma/common/campaigns';
import { fileSrc } from '@pluma/common/files';
import type { Actor } from '../../platform/auth/actor';
import type { OrganizationAccess } from '../organizations';
import { campaignAbilitiesOf } from './policy';
import type { campaignGrants, CampaignListRow } from './service';

export function presentCampaign(actor: Actor, access: OrganizationAccess, row: CampaignListRow): Campaign {
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
    abilities: campaignAbilitiesOf(actor, access),
  };
}

export function presentCampaignDetail(actor: Actor, access: OrganizationAccess, row: CampaignListRow, grants: Awaited<ReturnType<typeof campaignGrants>>): CampaignDetail {
  return { ...presentCampaign(actor, access, row), campaign_users: grants.users, campaign_groups: grants.groups };
}
