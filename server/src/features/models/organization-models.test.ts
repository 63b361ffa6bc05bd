// Models in an organization with its own OpenAI key (issue 12 follow-up; spec part 2 §3 Organization
// `openai_api_key`): GET /api/models and the model check of POST/PUT /api/conversations offer what the
// scope's AI calls can reach — OpenAI's models in that organization even when the operator has no OpenAI
// key; Personal scope and other organizations keep the operator's list; the key never leaves the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';

const ORG_KEY = 'sk-org-models-secret-4242';

describe(`models in an organization with its own key (${testDbKind()})`, () => {
  let t: TestApp;
  let admin: BuiltUser;
  let outsider: BuiltUser;
  let keyed: number;
  let keyless: number;
  const bodies: string[] = [];

  const call = async (who: BuiltUser, method: 'GET' | 'POST' | 'PUT', url: string, organizationId: number | null, payload?: object) => {
    const res = await t.app.inject({ method, url: organizationId ? `${url}?organization_id=${organizationId}` : url, headers: who.auth, ...(payload ? { payload } : {}) });
    bodies.push(res.body);
    return res;
  };
  const modelIds = async (who: BuiltUser, organizationId: number | null) => ((await call(who, 'GET', '/api/models', organizationId)).json() as { id: string }[]).map((m) => m.id);
  const setKey = async (organizationId: number, key: string) => {
    const res = await call(admin, 'POST', '/api/organizations/update', organizationId, { organization_id: organizationId, name: `Org ${organizationId}`, openai_api_key: key });
    expect(res.statusCode).toBe(200);
  };

  beforeAll(async () => {
    // The operator has no OpenAI key: Personal chat runs on the offline demo model.
    t = await createTestApp();
    admin = await buildUser(t.ctx, { access: true });
    outsider = await buildUser(t.ctx, { access: true });
    keyed = (await buildOrganization(t.ctx, [{ user: admin, role: 'admin' }])).organizationId;
    keyless = (await buildOrganization(t.ctx, [{ user: admin, role: 'admin' }])).organizationId;
    await setKey(keyed, ORG_KEY);
  });
  afterAll(() => t?.close());

  it("GET /api/models offers OpenAI's models in the organization with a key, the operator's list elsewhere", async () => {
    expect(await modelIds(admin, keyed)).toContain('gpt-4o-mini');
    expect(await modelIds(admin, null)).toEqual(['demo']);
    expect(await modelIds(admin, keyless)).toEqual(['demo']);
    // Not a member: the organization is a 404, its models are not listed.
    expect((await call(outsider, 'GET', '/api/models', keyed)).statusCode).toBe(404);
  });

  it('a conversation may pick a GPT model explicitly only where a key reaches it', async () => {
    const created = await call(admin, 'POST', '/api/conversations', keyed, { name: 'Team GPT', model: 'gpt-4o-mini', organization_id: keyed });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ model: 'gpt-4o-mini', organization_id: keyed });

    const personal = await call(admin, 'POST', '/api/conversations', null, { name: 'Mine', model: 'gpt-4o-mini' });
    expect(personal.statusCode).toBe(400);
    expect(personal.json()).toMatchObject({ details: { model: expect.any(String) } });
    expect((await call(admin, 'POST', '/api/conversations', keyless, { name: 'No key', model: 'gpt-4o-mini', organization_id: keyless })).statusCode).toBe(400);

    // Editing: the same check in the conversation's scope.
    const plain = await call(admin, 'POST', '/api/conversations', keyed, { name: 'Plain', organization_id: keyed });
    const id = plain.json().conversation_id as number;
    const updated = await call(admin, 'PUT', '/api/conversations', keyed, { conversation_id: id, name: 'Plain', model: 'gpt-4o-mini' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().model).toBe('gpt-4o-mini');
    expect((await call(admin, 'PUT', '/api/conversations', keyed, { conversation_id: id, name: 'Plain', model: 'no-such-model' })).statusCode).toBe(400);
  });

  it('a removed key takes the models away at once; no response carries the key', async () => {
    await setKey(keyed, '');
    expect(await modelIds(admin, keyed)).toEqual(['demo']);
    expect((await call(admin, 'POST', '/api/conversations', keyed, { name: 'Late', model: 'gpt-4o-mini', organization_id: keyed })).statusCode).toBe(400);
    await setKey(keyed, ORG_KEY);
    expect(await modelIds(admin, keyed)).toContain('gpt-4o-mini');
    expect(bodies.join('\n')).not.toContain(ORG_KEY);
    expect(bodies.join('\n')).not.toContain('org-models-secret');
  });
});
