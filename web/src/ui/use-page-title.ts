// "Page · App" in the browser tab while a screen is shown.
import { useEffect } from 'react';
import { useAppConfig } from '../platform/config/app-config';

// The title the shown screen asked for: the site title (app/config/DocumentHead.tsx), which may be written
// after it (a configuration change, or simply a later effect), must not replace it.
let screenTitle: string | null = null;

/** The shown screen's own title, if it has one. */
export const activeScreenTitle = (): string | null => screenTitle;

/** Tests only (test/setup.ts): no screen title. */
export function resetScreenTitleForTests() {
  screenTitle = null;
}

/** The whole tab title while the calling screen is shown; the site title again when it goes. */
export function useDocumentTitle(full: string | null | undefined) {
  const config = useAppConfig();
  const siteTitle = config.get('title') || config.get('app_name');
  useEffect(() => {
    if (!full) return;
    screenTitle = full;
    document.title = full;
    return () => {
      if (screenTitle === full) screenTitle = null;
      document.title = siteTitle;
    };
  }, [full, siteTitle]);
}

export function usePageTitle(page: string | null | undefined) {
  const appName = useAppConfig().get('app_name');
  useDocumentTitle(page ? `${page} · ${appName}` : null);
}
