// Providers: TanStack Query, Mantine (theme from the configuration), router, session; then the routes.
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { AppRouter } from './AppRouter';
import { readConfig, useAppConfigQuery } from '../platform/config/app-config';
import { DocumentHead } from './config/DocumentHead';
import { buildTheme } from './config/theme';
import { afterFirstPaint } from '../platform/first-paint';
import { createQueryClient } from './query-client';
import { SessionProvider } from './session/SessionProvider';

// Mantine's notifications bring transitions and drag handling (~10 KB brotli) the first screen does not
// need: loaded after it has been painted (first-paint.ts). Alerts raised before wait in the store
// (ui/alerts.ts) and show once it is here.
const AppNotifications = lazy(() =>
  afterFirstPaint()
    .then(() => import('../ui/AppNotifications'))
    .then((module) => ({ default: module.AppNotifications })),
);

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemedApp />
    </QueryClientProvider>
  );
}

function ThemedApp() {
  const configQuery = useAppConfigQuery();
  const config = readConfig(configQuery.data ?? []);
  const primary = config.get('primary_color');
  const accent = config.get('accent_color');
  const theme = useMemo(() => buildTheme(primary, accent), [primary, accent]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <BrowserRouter>
        <SessionProvider>
          {configQuery.data && <DocumentHead />}
          <Suspense fallback={null}>
            <AppNotifications />
          </Suspense>
          <AppRouter />
        </SessionProvider>
      </BrowserRouter>
    </MantineProvider>
  );
}
