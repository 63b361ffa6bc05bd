// Campaigns of an organization (spec part 2 §2 "Campaigns list", "Campaign detail", "Campaign users page";
// §3 Campaign, Campaign resource link; §5; §6; §7 "Campaigns"; §9 sort keys): requests and responses of
// /api/campaigns. Rights per role: docs/decisions.md "Campaigns".
import { z } from 'zod';
import { CONVERSATION_SORT_KEYS } from './constants';
import { DOCUMENT_NAME_MAX } from './documents';
import { id, idParam, text } from './schema-kit';

export const CAMPAIGN_NAME_MAX = 200;
export const CAMPAIGN_DESCRIPTION_MAX = 2_000;
export const CAMPAIGNS_PAGE_SIZE = 60;
export const CAMPAIGN_RESOURCES_PAGE_SIZE = 100;

/** spec §9: createdAt_desc, updatedAt_desc, name_asc, name_desc. */
export const CAMPAIGN_SORT_KEYS = CONVERSATION_SORT_KEYS;
export type CampaignSortKey = (typeof CAMPAIGN_SORT_KEYS)[number];
export const DEFAULT_CAMPAIGN_SORT: CampaignSortKey = 'createdAt_desc';

export const CAMPAIGN_RESOURCE_TYPES = ['document', 'template'] as const;
export type CampaignResourceType = (typeof CAMPAIGN_RESOURCE_TYPES)[number];
export const campaignResourceType = z.enum(CAMPAIGN_RESOURCE_TYPES, { error: 'campaign_resource_type_invalid' });

export const CAMPAIGN_ACTIONS = ['read', 'update', 'delete', 'manage_resources', 'manage_access'] as const;
export type CampaignAction = (typeof CAMPAIGN_ACTIONS)[number];
export const campaignAbilities = z.object(Object.fromEntries(CAMPAIGN_ACTIONS.map((a) => [a, z.boolean()])) as Record<CampaignAction, z.ZodBoolean>);

export const campaign = z.object({
  campaign_id: z.number(),
  name: z.string(),
  description: z.string(),
  /** Where the thumbnail image is served; null: the web shows the default. */
  thumbnail: z.string().nullable(),
  thumbnail_file_id: z.number().nullable(),
  organization_id: z.number(),
  /** The owner; null once their account is gone. */
  user_id: z.number().nullable(),
  user: z.object({ name: z.string(), last_name: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: campaignAbilities,
});
export type Campaign = z.infer<typeof campaign>;

export const campaignUser = z.object({
  user_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  /** The user's role in the organization (1 Admin, 2 Manager, 3 Member); null if they left it. */
  user_type_id: z.number().nullable(),
});
export type CampaignUser = z.infer<typeof campaignUser>;

export const campaignGroup = z.object({ group_id: z.number(), name: z.string() });
export type CampaignGroup = z.infer<typeof campaignGroup>;

/** GET /campaigns/{id}: the campaign with its grants (spec §3 campaign_users, campaign_groups). */
export const campaignDetail = campaign.extend({ campaign_users: z.array(campaignUser), campaign_groups: z.array(campaignGroup) });
export type CampaignDetail = z.infer<typeof campaignDetail>;

export const campaignList = z.object({
  campaigns: z.array(campaign),
  total: z.number(),
  /** true: there are more than `total`, which is then the cap (shown as "1,000+"; server/src/db/capped-count.ts). */
  total_capped: z.boolean().optional(),
  /** Send as `cursor` with the next page number (faster deep pages); null on the last page. */
  next_cursor: z.string().nullable().optional(),
});
export type CampaignList = z.infer<typeof campaignList>;

/**
 * The path of GET /campaigns/organization/{orgId}query (spec §7: "the path lacks a separator before
 * 'query'"): the organization id, followed by the literal 'query' as the spec's clients send it, or alone.
 */
export const campaignListParams = z.object({ orgRef: z.string().regex(/^[1-9]\d{0,9}(query)?$/, { error: 'invalid_id' }) });
export const campaignListPath = (organizationId: number) => `/campaigns/organization/${organizationId}query`;

export const campaignListQuery = z.object({
  /** Part of the name, any case. */
  query: text().trim().max(200).optional(),
  sortBy: z.enum(CAMPAIGN_SORT_KEYS).catch(DEFAULT_CAMPAIGN_SORT).default(DEFAULT_CAMPAIGN_SORT),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  /** The previous page's next_cursor, sent with the next page number: that page is read from it (server/src/db/page-cursor.ts). */
  cursor: text().max(500).optional(),
});
export type CampaignListQuery = z.input<typeof campaignListQuery>;

export const campaignIdParams = z.object({ id: idParam() });
export const campaignAccessParams = z.object({ campaign_id: idParam() });

const name = text({ error: 'campaign_name_required' }).trim().min(1, { error: 'campaign_name_required' }).max(CAMPAIGN_NAME_MAX);
const description = text().trim().max(CAMPAIGN_DESCRIPTION_MAX);

/**
 * The `campaign` JSON part of POST /campaigns (multipart, with an optional `thumbnail` image part). spec §5:
 * saving requires a selected organization ('Please select an organization').
 */
export const createCampaignRequest = z.object({
  organization_id: id({ error: 'campaign_organization_required' }),
  name,
  description: description.default(''),
});
export type CreateCampaignRequest = z.input<typeof createCampaignRequest>;

/** The `campaign` JSON part of PUT /campaigns; `remove_thumbnail` drops the image (a new part replaces it). */
export const updateCampaignRequest = z.object({
  campaign_id: id(),
  organization_id: id({ error: 'campaign_organization_required' }).optional(),
  name,
  description: description.optional(),
  remove_thumbnail: z.boolean().optional(),
});
export type UpdateCampaignRequest = z.input<typeof updateCampaignRequest>;

export const campaignResource = z.object({
  resource_id: z.number(),
  campaign_id: z.number(),
  type: campaignResourceType,
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CampaignResource = z.infer<typeof campaignResource>;

/** GET /campaigns/{id}/resources?resources=document|template&query= */
export const campaignResourcesQuery = z.object({
  resources: campaignResourceType.default('document'),
  query: text().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type CampaignResourcesQuery = z.input<typeof campaignResourcesQuery>;
export const campaignResourceList = z.object({
  resources: z.array(campaignResource),
  total: z.number(),
  /** true: there are more than `total`, which is then the cap (server/src/db/capped-count.ts). */
  total_capped: z.boolean().optional(),
});
export type CampaignResourceList = z.infer<typeof campaignResourceList>;

/** GET /campaigns/{id}/candidates?resources=&query=: the organization's documents or templates not in the campaign (Add). */
export const campaignCandidatesQuery = z.object({ resources: campaignResourceType.default('document'), query: text().trim().max(200).optional() });
export type CampaignCandidatesQuery = z.input<typeof campaignCandidatesQuery>;
export const campaignCandidates = z.object({
  resources: z.array(z.object({ resource_id: z.number(), type: campaignResourceType, name: z.string() })),
  /** How many of that type the organization has at all: 0 means none yet (not "all already in the campaign"). */
  organization_total: z.number(),
});
export type CampaignCandidates = z.infer<typeof campaignCandidates>;

/**
 * POST /campaigns/{id}/documents (issue 30 item 17): a new, empty document with this name, made in the
 * campaign's organization and added to the campaign in one step.
 */
export const campaignDocumentRequest = z.object({
  name: text({ error: 'campaign_document_name_required' })
    .trim()
    .min(1, { error: 'campaign_document_name_required' })
    .max(DOCUMENT_NAME_MAX),
});
export type CampaignDocumentRequest = z.input<typeof campaignDocumentRequest>;
export const campaignResourceCreated = z.object({ resource_id: z.number(), campaign_id: z.number(), type: campaignResourceType, name: z.string() });
export type CampaignResourceCreated = z.infer<typeof campaignResourceCreated>;

/** POST and PUT /campaigns/campaign-resource/ (spec §5: 'Please select a campaign' without one). */
export const campaignResourceRequest = z.object({
  resource_id: id(),
  campaign_id: id({ error: 'campaign_required' }),
  type: campaignResourceType,
});
export type CampaignResourceRequest = z.input<typeof campaignResourceRequest>;
export const campaignResourceParams = z.object({ type: campaignResourceType, resource_id: idParam(), campaign_id: idParam() });
export const campaignResourceLink = z.object({ resource_id: z.number(), campaign_id: z.number(), type: campaignResourceType });

/** POST /campaigns/give-access/{campaign_id} and /revoke-access/{campaign_id}: a user, a group or both. */
export const campaignAccessRequest = z
  .object({ user_id: id().optional(), group_id: id().optional() })
  .refine((v) => v.user_id !== undefined || v.group_id !== undefined, { error: 'campaign_access_target_required' });
export type CampaignAccessRequest = z.input<typeof campaignAccessRequest>;
export const campaignAccessResponse = z.object({ campaign_id: z.number(), user_id: z.number().nullable(), group_id: z.number().nullable() });

/** GET /campaigns/{id}/access-candidates: the organization's members and groups without a grant yet (users page). */
export const campaignAccessCandidatesQuery = z.object({ query: text().trim().max(200).optional() });
export const campaignAccessCandidates = z.object({ users: z.array(campaignUser), groups: z.array(campaignGroup) });
export type CampaignAccessCandidates = z.infer<typeof campaignAccessCandidates>;

export const campaignDeletedResponse = z.object({ deleted: z.literal(true) });
