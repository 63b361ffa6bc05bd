// The onboarding check (GET /api/users/onboarding, in the active context: the API client adds
// organization_id) and the first conversation's latest messages for the walkthrough.
import type { MessagePage } from '@pluma/common/messages-api';
import type { OnboardingStatus } from '@pluma/common/onboarding';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

/** Context-dependent: dropped when the organization changes (organization-context.tsx). */
export const ONBOARDING_KEY = ['onboarding'] as const;

/** How many of the first conversation's latest messages the walkthrough shows. */
export const WALKTHROUGH_MESSAGES = 4;

const fetchOnboardingStatus = ({ signal }: { signal: AbortSignal }) => api.get<OnboardingStatus>('/users/onboarding', { signal });

export function useOnboardingStatus(enabled: boolean) {
  return useQuery({
    queryKey: ONBOARDING_KEY,
    queryFn: fetchOnboardingStatus,
    enabled,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The status if this page load has asked for it already (never fetches by itself). */
export function useCachedOnboardingStatus(): OnboardingStatus | undefined {
  return useQuery({ queryKey: ONBOARDING_KEY, queryFn: fetchOnboardingStatus, enabled: false }).data;
}

export function useWalkthroughMessages(conversationId: number | null) {
  return useQuery({
    queryKey: ['onboarding', 'messages', conversationId],
    queryFn: ({ signal }) => api.get<MessagePage>(`/messages/conversation/${conversationId}`, { query: { limit: WALKTHROUGH_MESSAGES }, signal }),
    enabled: conversationId !== null,
  });
}
