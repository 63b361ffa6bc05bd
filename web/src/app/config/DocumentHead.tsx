// Keeps the document head in step with the configuration and language. The admin's tracking codes are
// not added here: the server writes them into index.html with the page's CSP nonce (platform/http/index-html.ts),
// since a strict script CSP would block scripts added later.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../../platform/config/app-config';
import { activeScreenTitle } from '../../ui/use-page-title';
import { setCustomCss, setFavicon, setSocialMeta, setThemeColor } from './document-head';

export function DocumentHead() {
  const config = useAppConfig();
  const { i18n } = useTranslation();
  const appName = config.get('app_name');
  const title = config.get('title') || appName;
  const tagline = config.get('tagline');
  const favicon = config.get('favicon_url');
  const image = config.get('social_media_image');
  const css = config.get('app_css');
  const primary = config.get('primary_color');

  useEffect(() => {
    // A screen's own title ("Page · App") stays while that screen is shown.
    document.title = activeScreenTitle() ?? title;
    setSocialMeta({ title, description: tagline, image });
  }, [title, tagline, image]);
  useEffect(() => setFavicon(favicon), [favicon]);
  useEffect(() => setThemeColor(primary), [primary]);
  useEffect(() => setCustomCss(css), [css]);
  useEffect(() => {
    document.documentElement.lang = i18n.language;
  }, [i18n.language]);
  return null;
}
