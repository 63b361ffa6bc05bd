// spec part 2 §4 "Organization selection order": URL slug or domain, saved id, default organization, Personal.
import { describe, expect, it } from 'vitest';
import { mayStartInOrganization, organizationFromUrl, selectOrganization } from './organization-selection';
import { deletionConfirmed, formValuesOf, updatePayload } from './organization-form';
import { buildOrganization } from './test-organizations';

const acme = { organization_id: 1, slug: 'acme', domain: 'team.acme.com' };
const beta = { organization_id: 2, slug: null, domain: null };
const gamma = { organization_id: 3, slug: 'gamma', domain: 'https://gamma.io/' };
const all = [acme, beta, gamma];
const here = { search: '', hostname: 'app.pluma.test' };

describe('organization selection order', () => {
  it('the URL slug (or id) wins over everything', () => {
    expect(selectOrganization({ organizations: all, location: { ...here, search: '?organization=gamma' }, savedId: 1, defaultId: 2 })).toBe(gamma);
    expect(selectOrganization({ organizations: all, location: { ...here, search: '?organization=2' }, savedId: 1, defaultId: 3 })).toBe(beta);
  });
  it('then the domain the page is on (a stored URL-like domain matches its host)', () => {
    expect(selectOrganization({ organizations: all, location: { search: '', hostname: 'team.acme.com' }, savedId: 2, defaultId: 2 })).toBe(acme);
    expect(organizationFromUrl(all, { search: '', hostname: 'gamma.io' })).toBe(gamma);
  });
  it('then the saved id, then the default organization, then Personal', () => {
    expect(selectOrganization({ organizations: all, location: here, savedId: 2, defaultId: 3 })).toBe(beta);
    expect(selectOrganization({ organizations: all, location: here, savedId: null, defaultId: 3 })).toBe(gamma);
    expect(selectOrganization({ organizations: all, location: here, savedId: null, defaultId: null })).toBeNull();
  });
  it('a saved choice of Personal comes before the default organization (the URL still wins)', () => {
    expect(selectOrganization({ organizations: all, location: here, savedId: null, savedPersonal: true, defaultId: 3 })).toBeNull();
    expect(selectOrganization({ organizations: all, location: { ...here, search: '?organization=acme' }, savedId: null, savedPersonal: true, defaultId: 3 })).toBe(acme);
    expect(mayStartInOrganization({ search: '', savedId: null, savedPersonal: true, defaultId: 3 })).toBe(false);
  });
  it('skips a slug, saved id or default the user does not belong to', () => {
    expect(selectOrganization({ organizations: all, location: { ...here, search: '?organization=nope' }, savedId: 99, defaultId: 1 })).toBe(acme);
    expect(selectOrganization({ organizations: [], location: { ...here, search: '?organization=acme' }, savedId: 1, defaultId: 1 })).toBeNull();
  });
  it('waits for the list only when something may name an organization besides a domain', () => {
    expect(mayStartInOrganization({ search: '', savedId: null, defaultId: null })).toBe(false);
    expect(mayStartInOrganization({ search: '?organization=acme', savedId: null, defaultId: null })).toBe(true);
    expect(mayStartInOrganization({ search: '', savedId: 4, defaultId: null })).toBe(true);
    expect(mayStartInOrganization({ search: '', savedId: null, defaultId: 4 })).toBe(true);
  });
});

describe('organization settings form rules', () => {
  it('sends a secret only when it was replaced (never the masked value); an emptied one clears it', () => {
    const values = formValuesOf(buildOrganization({ stripe_secret: '••••••••abcd', openai_api_key: '••••••••wxyz' }));
    const untouched = updatePayload(5, values);
    expect(untouched).not.toHaveProperty('stripe_secret');
    expect(untouched).not.toHaveProperty('openai_api_key');
    const replaced = updatePayload(5, { ...values, openai_api_key: 'sk-new', stripe_secret: '' });
    expect(replaced.openai_api_key).toBe('sk-new');
    expect(replaced.stripe_secret).toBe('');
  });
  it('the video toggle sends one source and clears the other', () => {
    const values = formValuesOf(buildOrganization({ welcome_video_file_id: 8 }));
    expect(values.video_source).toBe('file');
    expect(updatePayload(5, values)).toMatchObject({ welcome_video_file_id: 8, welcome_video_url: null });
    expect(updatePayload(5, { ...values, video_source: 'url', welcome_video_url: ' https://v.example/x ' })).toMatchObject({ welcome_video_file_id: null, welcome_video_url: 'https://v.example/x' });
    expect(formValuesOf(buildOrganization({ welcome_video_url: 'https://v.example/x' })).video_source).toBe('url');
  });
  it('deletion needs the exact name', () => {
    expect(deletionConfirmed('Acme', 'Acme')).toBe(true);
    expect(deletionConfirmed('acme', 'Acme')).toBe(false);
    expect(deletionConfirmed('Acme ', 'Acme')).toBe(false);
  });
});
