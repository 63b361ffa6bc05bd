// GET /api/users/onboarding (spec part 2 §2, §4) through the real app: counts only the user's own
// conversations and avatars of the request's context, picks the newest active or completed purchase of that
// context with its product's video, and refuses outsiders (401, a non-member's organization_id → 404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatars, conversations } from '../../db/schema';
import { buildOrganization, buildProduct, buildPurchase, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';

describe(`onboarding: status (${testDbKind()})`, () => {
  let t: TestApp;
  let ana: BuiltUser;
  let ben: BuiltUser;
  let organizationId: number;

  const status = (who: BuiltUser, organization?: number) =>
    t.app.inject({ url: `/api/users/onboarding${organization ? `?organization_id=${organization}` : ''}`, headers: who.auth });
  const conversation = (who: BuiltUser, name: string, organization: number | null = null, createdAt = new Date()) =>
    t.ctx.db.insert(conversations).values({ userId: who.user.userId, organizationId: organization, name, createdAt, updatedAt: createdAt }).returning();

  beforeAll(async () => {
    t = await createTestApp();
    ana = await buildUser(t.ctx, { access: true });
    ben = await buildUser(t.ctx, { access: true });
    organizationId = (await buildOrganization(t.ctx, [{ user: ana, role: 'member' }])).organizationId;
  });
  afterAll(() => t?.close());

  it('refuses signed-out callers, and an organization the user is not a member of is a 404', async () => {
    expect((await t.app.inject({ url: '/api/users/onboarding' })).statusCode).toBe(401);
    expect((await status(ben, organizationId)).statusCode).toBe(404);
  });

  it('a newcomer needs onboarding until a second conversation or an own avatar', async () => {
    const cleo = await buildUser(t.ctx, { access: true });
    let body = (await status(cleo)).json();
    expect(body).toMatchObject({ conversation_count: 0, first_conversation: null, owns_avatar: false, needs_onboarding: true });
    expect(body.purchase).toMatchObject({ status: 'active', product: { video_src: null } });

    // The defaults (conversation_assistant, Super Fetch) are not avatars the user made.
    await t.ctx.db.insert(avatars).values({ userId: cleo.user.userId, name: 'Default', context: 'x', kind: 'conversation_assistant' });
    const [first] = await conversation(cleo, 'First steps', null, new Date(Date.now() - 60_000));
    body = (await status(cleo)).json();
    expect(body).toMatchObject({ conversation_count: 1, owns_avatar: false, needs_onboarding: true });
    expect(body.first_conversation).toEqual({ conversation_id: first.conversationId, name: 'First steps', model: null });

    // Other users' conversations and avatars change nothing.
    await conversation(ben, 'Not hers');
    await t.ctx.db.insert(avatars).values({ userId: ben.user.userId, name: 'Ben', context: 'x' });
    expect((await status(cleo)).json().needs_onboarding).toBe(true);

    await conversation(cleo, 'Second');
    body = (await status(cleo)).json();
    expect(body).toMatchObject({ conversation_count: 2, needs_onboarding: false });
    // The walkthrough keeps showing the first one.
    expect(body.first_conversation.conversation_id).toBe(first.conversationId);
  });

  it('an own avatar ends onboarding', async () => {
    const dan = await buildUser(t.ctx, { access: true });
    await t.ctx.db.insert(avatars).values({ userId: dan.user.userId, name: 'Writer', context: 'x' });
    expect((await status(dan)).json()).toMatchObject({ owns_avatar: true, needs_onboarding: false });
  });

  it("reads the organization's context: its conversations, avatars and newest active or completed purchase", async () => {
    // Personal has Ana's access purchase; the organization has its own products.
    const oldProduct = await buildProduct(t.ctx, { organizationId, videoSrc: 'https://videos.example.com/old.mp4' });
    const newProduct = await buildProduct(t.ctx, { organizationId, videoSrc: 'https://videos.example.com/welcome.mp4' });
    const pendingProduct = await buildProduct(t.ctx, { organizationId, videoSrc: 'https://videos.example.com/pending.mp4' });
    await buildPurchase(t.ctx, { userId: ana.user.userId, productId: oldProduct.productId, organizationId, status: 'completed', createdAt: new Date(Date.now() - 3_600_000) });
    const chosen = await buildPurchase(t.ctx, { userId: ana.user.userId, productId: newProduct.productId, organizationId, status: 'active', createdAt: new Date(Date.now() - 60_000) });
    // Newer, but neither active nor completed.
    await buildPurchase(t.ctx, { userId: ana.user.userId, productId: pendingProduct.productId, organizationId, status: 'pending' });
    // Another user's newer purchase of the organization is not hers.
    await buildPurchase(t.ctx, { userId: ben.user.userId, productId: pendingProduct.productId, organizationId, status: 'active' });

    await conversation(ana, 'Personal one');
    await conversation(ana, 'Personal two');
    await t.ctx.db.insert(avatars).values({ userId: ana.user.userId, name: 'Personal avatar', context: 'x' });
    expect((await status(ana)).json()).toMatchObject({ conversation_count: 2, owns_avatar: true, needs_onboarding: false });
    expect((await status(ana)).json().purchase.product.video_src).toBeNull();

    let body = (await status(ana, organizationId)).json();
    expect(body).toMatchObject({ conversation_count: 0, owns_avatar: false, needs_onboarding: true });
    expect(body.purchase).toMatchObject({
      purchase_id: chosen.purchaseId,
      status: 'active',
      product: { product_id: newProduct.productId, name: newProduct.name, video_src: 'https://videos.example.com/welcome.mp4' },
    });

    await t.ctx.db.insert(avatars).values({ userId: ana.user.userId, organizationId, name: 'Team avatar', context: 'x' });
    body = (await status(ana, organizationId)).json();
    expect(body).toMatchObject({ owns_avatar: true, needs_onboarding: false });
  });
});
