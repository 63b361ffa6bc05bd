// TanStack Query client. The API client already retries network failures (spec part 1 §7), so queries
// do not retry on top of it.
import { ErrorIds } from '@pluma/common/errors';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/api-error';
import { APP_CONFIG_QUERY_KEY } from '../platform/config/app-config';

export function createQueryClient() {
  // A feature switched off since the settings were read answers 404 feature_disabled: read them again,
  // and the screen turns into "This feature is not available" (shell/ShellApp.tsx).
  const onError = (error: Error) => {
    if (error instanceof ApiError && error.errorId === ErrorIds.featureDisabled) void client.invalidateQueries({ queryKey: APP_CONFIG_QUERY_KEY });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  return client;
}
