// The page head from the configuration (spec part 1 §3, part 2 §2): title, favicon, social image,
// custom CSS. DOM-only helpers, called from <DocumentHead/>. (The tracking codes are written into
// index.html by the server, with the page's CSP nonce.)

function upsertMeta(attribute: 'name' | 'property', key: string, content: string) {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!content) {
    element?.remove();
    return;
  }
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.appendChild(element);
  }
  element.content = content;
}

export function setFavicon(url: string) {
  let link = document.head.querySelector<HTMLLinkElement>('link#app-favicon');
  if (!link) {
    link = document.createElement('link');
    link.id = 'app-favicon';
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  const href = url || '/favicon.svg';
  if (link.getAttribute('href') !== href) {
    link.removeAttribute('type');
    link.href = href;
  }
}

export function setSocialMeta(options: { title: string; description: string; image: string }) {
  upsertMeta('property', 'og:title', options.title);
  upsertMeta('property', 'og:description', options.description);
  upsertMeta('property', 'og:image', options.image);
  upsertMeta('name', 'twitter:card', options.image ? 'summary_large_image' : 'summary');
  upsertMeta('name', 'twitter:title', options.title);
  upsertMeta('name', 'twitter:description', options.description);
  upsertMeta('name', 'twitter:image', options.image);
  upsertMeta('name', 'description', options.description);
}

export function setThemeColor(color: string) {
  upsertMeta('name', 'theme-color', color);
}

/** The admin's app_css, in one <style> element that follows the setting. */
export function setCustomCss(css: string) {
  let style = document.getElementById('app-css') as HTMLStyleElement | null;
  if (!css) {
    style?.remove();
    return;
  }
  if (!style) {
    style = document.createElement('style');
    style.id = 'app-css';
    document.head.appendChild(style);
  }
  if (style.textContent !== css) style.textContent = css;
}
