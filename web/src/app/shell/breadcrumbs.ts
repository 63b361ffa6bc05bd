// The breadcrumb bar is built from the path (spec part 2 §2), with a Back link on shallow paths.
export interface Crumb {
  /** i18n key for known segments, else null and `text` is shown. */
  labelKey: string | null;
  text: string;
  to: string;
}

export interface BreadcrumbModel {
  crumbs: Crumb[];
  /** Parent path for the Back link, on paths one or two levels deep. */
  back: string | null;
}

/** Number of levels at or below which the bar offers a Back link. */
export const SHALLOW_DEPTH = 2;

export function buildBreadcrumbs(pathname: string, knownSegment: (segment: string) => boolean): BreadcrumbModel {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length === 0) return { crumbs: [], back: null };
  const crumbs: Crumb[] = [{ labelKey: 'breadcrumbs.home', text: '', to: '/' }];
  segments.forEach((raw, index) => {
    let segment = raw;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      // Keep the raw text of a malformed escape.
    }
    const to = `/${segments.slice(0, index + 1).join('/')}`;
    const key = segment.toLowerCase();
    if (knownSegment(key)) crumbs.push({ labelKey: `breadcrumbs.${key}`, text: '', to });
    else crumbs.push({ labelKey: null, text: /^\d+$/.test(segment) ? `#${segment}` : segment.replace(/[-_]+/g, ' '), to });
  });
  const parent = crumbs[crumbs.length - 2];
  return { crumbs, back: segments.length <= SHALLOW_DEPTH ? parent.to : null };
}
