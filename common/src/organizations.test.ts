// The organization and group request schemas (spec part 2 §5): the spec's name message, slugs, domains,
// video URLs, roles, and who is named when adding a user.
import { describe, expect, it } from 'vitest';
import { createGroupRequest } from './groups';
import { addOrganizationUserRequest, createOrganizationRequest, updateOrganizationRequest } from './organizations';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('organization schemas', () => {
  it('a name is required, with the spec message key', () => {
    for (const name of [undefined, '', '   ']) {
      expect(firstMessage(createOrganizationRequest.safeParse({ name }))).toBe('organization_name_required');
    }
    expect(createOrganizationRequest.parse({ name: '  Acme ' }).name).toBe('Acme');
  });

  it('slugs and domains are lowercased and checked; empty clears', () => {
    const ok = updateOrganizationRequest.parse({ organization_id: 1, name: 'A', slug: 'My-Team-2', domain: 'Team.Example.COM' });
    expect(ok).toMatchObject({ slug: 'my-team-2', domain: 'team.example.com' });
    expect(updateOrganizationRequest.parse({ organization_id: 1, name: 'A', slug: '', domain: '' })).toMatchObject({ slug: '', domain: '' });
    for (const slug of ['-lead', 'trail-', 'has space', 'ñandú', 'a'.repeat(61)]) {
      expect(firstMessage(updateOrganizationRequest.safeParse({ organization_id: 1, name: 'A', slug }))).toBe('organization_slug_invalid');
    }
    for (const domain of ['localhost', 'http://x.com', 'a..com', 'x.c']) {
      expect(firstMessage(updateOrganizationRequest.safeParse({ organization_id: 1, name: 'A', domain }))).toBe('organization_domain_invalid');
    }
  });

  it('the welcome video URL is http(s)', () => {
    expect(updateOrganizationRequest.safeParse({ organization_id: 1, name: 'A', welcome_video_url: 'https://v.example.com/a.mp4' }).success).toBe(true);
    for (const url of ['javascript:alert(1)', 'ftp://x/y', 'not a url']) {
      expect(firstMessage(updateOrganizationRequest.safeParse({ organization_id: 1, name: 'A', welcome_video_url: url }))).toBe('organization_video_url_invalid');
    }
  });

  it('adding a user names a user id or an email, and a role 1 to 3', () => {
    expect(firstMessage(addOrganizationUserRequest.safeParse({ organization_id: 1, user_type_id: 3 }))).toBe('organization_user_required');
    expect(firstMessage(addOrganizationUserRequest.safeParse({ organization_id: 1, email: 'a@b.co', user_type_id: 4 }))).toBe('organization_user_type_invalid');
    expect(addOrganizationUserRequest.parse({ organization_id: 1, email: ' A@B.co ', user_type_id: 2 }).email).toBe('a@b.co');
  });

  it('a group needs a name', () => {
    expect(firstMessage(createGroupRequest.safeParse({ name: ' ', organization_id: 1 }))).toBe('group_name_required');
  });
});
