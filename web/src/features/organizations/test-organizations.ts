// Test builders of the organizations and groups screens (the shapes of common/organizations.ts and groups.ts).
import type { Group, GroupDetail } from '@pluma/common/groups';
import { ORGANIZATION_ACTIONS, type Organization, type OrganizationAction, type OrganizationRoleName, type OrganizationUserRow } from '@pluma/common/organizations';

const RIGHTS: Record<OrganizationRoleName, OrganizationAction[]> = {
  admin: [...ORGANIZATION_ACTIONS],
  manager: ['read', 'view_users', 'manage_groups', 'view_analytics'],
  member: ['read'],
};

export function abilitiesFor(role: OrganizationRoleName): Organization['abilities'] {
  return Object.fromEntries(ORGANIZATION_ACTIONS.map((a) => [a, RIGHTS[role].includes(a)])) as Organization['abilities'];
}

export function buildOrganization(overrides: Partial<Organization> = {}): Organization {
  const role = overrides.role ?? 'admin';
  return {
    organization_id: 5,
    name: 'Acme',
    tagline: 'Writers together',
    slug: 'acme',
    domain: null,
    thumbnail: null,
    thumbnail_file_id: null,
    welcome_video: null,
    welcome_video_file_id: null,
    welcome_video_url: null,
    stripe_public: null,
    require_two_factor_admins: false,
    ...(role === 'admin' ? { stripe_secret: '', stripe_webhook_secret: '', openai_api_key: '' } : {}),
    role,
    user_type_id: role === 'admin' ? 1 : role === 'manager' ? 2 : 3,
    members_count: 3,
    createdAt: '2026-11-01T10:00:00.000Z',
    abilities: abilitiesFor(role),
    ...overrides,
  };
}

export function buildMemberRow(overrides: Partial<OrganizationUserRow> = {}): OrganizationUserRow {
  return {
    user_organization_id: 1,
    user_id: 20,
    name: 'Marta',
    last_name: 'Ruiz',
    email: 'marta@example.com',
    role: 'member',
    user_type_id: 3,
    total_words: 2500,
    word_count: 4000,
    last_used: null,
    ltv: 19.5,
    ...overrides,
  };
}

export function buildGroup(overrides: Partial<Group> = {}, canManage = true): Group {
  return {
    group_id: 9,
    name: 'Editors',
    organization_id: 5,
    users_count: 1,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    abilities: { read: true, update: canManage, delete: canManage, add_users: canManage, remove_users: canManage },
    ...overrides,
  };
}

export function buildGroupDetail(overrides: Partial<GroupDetail> = {}, canManage = true): GroupDetail {
  return {
    ...buildGroup({}, canManage),
    group_users: [{ user: { user_id: 20, name: 'Marta', last_name: 'Ruiz', email: 'marta@example.com', user_type_id: 3, createdAt: '2026-11-02T10:00:00.000Z' } }],
    ...overrides,
  };
}
