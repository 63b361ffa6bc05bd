// Keeps the document head in step with the configuration and language.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from './app-config';
import { injectTrackingCodes, setCustomCss, setFavicon, setSocialMeta, setThemeColor } from './document-head';

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
  const headCodes = config.get('head_tracking_codes');
  const bodyCodes = config.get('body_tracking_codes');

  useEffect(() => {
    document.title = title;
    setSocialMeta({ title, description: tagline, image });
  }, [title, tagline, image]);
  useEffect(() => setFavicon(favicon), [favicon]);
  useEffect(() => setThemeColor(primary), [primary]);
  useEffect(() => setCustomCss(css), [css]);
  useEffect(() => {
    injectTrackingCodes('head', headCodes);
    injectTrackingCodes('body', bodyCodes);
  }, [headCodes, bodyCodes]);
  useEffect(() => {
    document.documentElement.lang = i18n.language;
  }, [i18n.language]);
  return null;
}
