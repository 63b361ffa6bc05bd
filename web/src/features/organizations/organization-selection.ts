// Which organization a visit starts in (spec part 2 §4 "Organization selection order"): the organization
// matching the URL slug or domain, then the id saved in local storage, then the user's default
// organization, then 'Personal' (null). Pure, so the order is unit-tested.

export interface SelectableOrganization {
  organization_id: number;
  /** The organization's URL slug (lowercase letters, digits and dashes), if it has one. */
  slug: string | null;
  domain: string | null;
}

export interface SelectionInput<O extends SelectableOrganization> {
  /** The user's organizations (all of them, for staff viewing every organization). */
  organizations: readonly O[];
  /** The page address: its ?organization= slug and its host name. */
  location: { search: string; hostname: string };
  savedId: number | null;
  /** The last choice on this browser was Personal: it comes before the default organization. */
  savedPersonal?: boolean;
  defaultId: number | null;
}

/** The ?organization= of an address: an organization's slug or its id. */
export function slugOf(search: string): string | null {
  const value = new URLSearchParams(search).get('organization')?.trim().toLowerCase();
  return value ? value : null;
}

const hostOf = (domain: string) =>
  domain
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/[/:].*$/, '');

/** An organization the URL names: ?organization=<slug or id>, else the one whose domain is this host. */
export function organizationFromUrl<O extends SelectableOrganization>(organizations: readonly O[], location: SelectionInput<O>['location']): O | null {
  const slug = slugOf(location.search);
  if (slug) {
    const named = organizations.find((o) => String(o.organization_id) === slug || (o.slug !== null && o.slug === slug));
    if (named) return named;
  }
  const host = location.hostname.toLowerCase();
  return organizations.find((o) => o.domain && hostOf(o.domain) === host) ?? null;
}

export function selectOrganization<O extends SelectableOrganization>({ organizations, location, savedId, savedPersonal = false, defaultId }: SelectionInput<O>): O | null {
  const byId = (id: number | null) => (id === null ? null : (organizations.find((o) => o.organization_id === id) ?? null));
  // An id the user no longer belongs to (left, removed, deleted) is skipped: every request would be a 404.
  return organizationFromUrl(organizations, location) ?? byId(savedId) ?? (savedPersonal ? null : byId(defaultId));
}

/**
 * Whether the shell must wait for the organization list before its first screen: only when something may
 * name an organization besides a domain (a slug, a saved id, a default). A user without any of them starts
 * in Personal at once; a domain match, found when the list arrives, switches then.
 */
export function mayStartInOrganization(input: { search: string; savedId: number | null; savedPersonal?: boolean; defaultId: number | null }): boolean {
  return slugOf(input.search) !== null || input.savedId !== null || (input.defaultId !== null && !input.savedPersonal);
}
