// The sidebar picker's search (spec part 2 §2 "organization picker"): a staff admin's list holds every
// organization, 50 a page, so the picker asks the server by name (GET /organizations?query=), debounced
// like the list pages. The server puts the caller's own organizations first.
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchMyOrganizations, ORGANIZATIONS_KEY } from './organizations-api';

/**
 * The organizations matching `search` once typing pauses; nothing is asked while it is empty (the picker
 * shows the user's list then). `searching` is true from the first key until the answer for it arrives.
 */
export function useOrganizationSearch(search: string, enabled: boolean) {
  const typed = search.trim();
  const [query] = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const result = useQuery({
    queryKey: [...ORGANIZATIONS_KEY, 'picker', query],
    queryFn: () => fetchMyOrganizations(query),
    enabled: enabled && query !== '',
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const active = enabled && typed !== '';
  return {
    organizations: active && query !== '' ? (result.data?.organizations ?? []) : null,
    searching: active && (typed !== query || result.isFetching),
  };
}
