// "Page · App" in the browser tab while a screen is shown.
import { useEffect } from 'react';
import { useAppConfig } from '../app/config/app-config';

export function usePageTitle(page: string | null | undefined) {
  const config = useAppConfig();
  const appName = config.get('app_name');
  const siteTitle = config.get('title') || appName;
  useEffect(() => {
    if (!page) return;
    document.title = `${page} · ${appName}`;
    return () => {
      document.title = siteTitle;
    };
  }, [page, appName, siteTitle]);
}
