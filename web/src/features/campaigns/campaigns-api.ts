// The campaigns calls (spec part 2 §7 "Campaigns"): the organization's list (the spec's path without a
// separator before 'query'), one campaign with its grants, its documents or templates, save (POST or PUT by
// the §4 save rule, multipart: thumbnail + campaign JSON), delete, link and unlink resources, give and revoke
// access. Every call acts in the active organization (the API client appends its organization_id).
import {
  campaignListPath,
  type CampaignAccessCandidates,
  type CampaignAccessRequest,
  type CampaignCandidates,
  type CampaignDetail,
  type CampaignList,
  type CampaignResourceCreated,
  type CampaignResourceList,
  type CampaignResourceType,
  type CampaignSortKey,
  type Campaign,
} from '@pluma/common/campaigns';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/instance';
import { previousPageCursor } from '../../api/page-cursor';

export const CAMPAIGNS_KEY = ['campaigns'] as const;
export const campaignKey = (campaignId: number) => [...CAMPAIGNS_KEY, 'one', campaignId] as const;

export function useCampaigns(organizationId: number, query: string, sortBy: CampaignSortKey, page = 1) {
  const queryClient = useQueryClient();
  const keyOf = (n: number) => [...CAMPAIGNS_KEY, 'list', organizationId, query, sortBy, n];
  return useQuery({
    queryKey: keyOf(page),
    queryFn: ({ signal }) =>
      api.get<CampaignList>(campaignListPath(organizationId), {
        query: { query: query || undefined, sortBy, page: page > 1 ? page : undefined, cursor: previousPageCursor(queryClient, page, keyOf) },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useCampaign(campaignId: number | null) {
  return useQuery({ queryKey: campaignKey(campaignId ?? 0), queryFn: ({ signal }) => api.get<CampaignDetail>(`/campaigns/${campaignId}`, { signal }), enabled: campaignId !== null });
}

export function useCampaignResources(campaignId: number, type: CampaignResourceType, query: string) {
  return useQuery({
    queryKey: [...campaignKey(campaignId), 'resources', type, query],
    queryFn: ({ signal }) => api.get<CampaignResourceList>(`/campaigns/${campaignId}/resources`, { query: { resources: type, query: query || undefined }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useResourceCandidates(campaignId: number, type: CampaignResourceType, enabled: boolean) {
  return useQuery({
    queryKey: [...campaignKey(campaignId), 'candidates', type],
    queryFn: ({ signal }) => api.get<CampaignCandidates>(`/campaigns/${campaignId}/candidates`, { query: { resources: type }, signal }),
    enabled,
    staleTime: 0,
  });
}

export function useAccessCandidates(campaignId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...campaignKey(campaignId), 'access-candidates'],
    queryFn: ({ signal }) => api.get<CampaignAccessCandidates>(`/campaigns/${campaignId}/access-candidates`, { signal }),
    enabled,
    staleTime: 0,
  });
}

export interface CampaignFormValues {
  organization_id: number;
  name: string;
  description: string;
  /** A new image, or null to keep the current one. */
  thumbnail: File | null;
  remove_thumbnail?: boolean;
}

/** spec part 2 §4: no id creates (POST), an id updates (PUT); both a multipart form with the campaign JSON. */
export function saveCampaign(campaignId: number | null, values: CampaignFormValues) {
  const { thumbnail, ...fields } = values;
  const form = new FormData();
  // The JSON before the file: the server reads the parts as they come.
  form.append('campaign', JSON.stringify(campaignId === null ? fields : { ...fields, campaign_id: campaignId }));
  if (thumbnail) form.append('thumbnail', thumbnail);
  return campaignId === null ? api.post<Campaign>('/campaigns', form) : api.put<Campaign>('/campaigns', form);
}

/** "New document" of the campaign page: a named, empty document made in the campaign (issue 30 item 17). */
export const createCampaignDocument = (campaignId: number, name: string) => api.post<CampaignResourceCreated>(`/campaigns/${campaignId}/documents`, { name });

export const deleteCampaign = (campaignId: number) => api.delete<{ deleted: true }>(`/campaigns/campaign/${campaignId}`);
export const addCampaignResource = (campaignId: number, type: CampaignResourceType, resourceId: number) =>
  api.post('/campaigns/campaign-resource/', { campaign_id: campaignId, resource_id: resourceId, type });
export const removeCampaignResource = (campaignId: number, type: CampaignResourceType, resourceId: number) =>
  api.delete(`/campaigns/campaign-resource/${type}/${resourceId}/${campaignId}`);
export const giveCampaignAccess = (campaignId: number, body: CampaignAccessRequest) => api.post(`/campaigns/give-access/${campaignId}`, body);
export const revokeCampaignAccess = (campaignId: number, body: CampaignAccessRequest) => api.post(`/campaigns/revoke-access/${campaignId}`, body);
