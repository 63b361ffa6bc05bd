// The start-up check of the onboarding screen (spec part 2 §2 "Shell and session routing": "If the user has
// at most one conversation and owns no avatar, an onboarding screen is shown (it uses the latest active or
// completed purchase of the current organization)"; §4: valid purchases are active or completed, the newest
// by createdAt). Everything is read in the request's context: Personal, or the active organization.
import { ONBOARDING_CONVERSATION_CAP, ONBOARDING_PURCHASE_STATUSES, type OnboardingStatus } from '@pluma/common/onboarding';
import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { avatars, conversations, products, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { conversationPolicy } from '../conversations';

type ContextActor = Pick<Actor, 'user' | 'organization'>;

const inContext = (column: typeof purchases.organizationId | typeof avatars.organizationId, actor: ContextActor) =>
  actor.organization ? eq(column, actor.organization.organizationId) : isNull(column);

/** Three small indexed reads (conversations_user_created_idx, avatars_user_org_updated_kind_idx, purchases_user_created_idx). */
export async function readOnboardingStatus({ db, actor }: { db: Db; actor: ContextActor }): Promise<OnboardingStatus> {
  const userId = actor.user.userId;
  const [firstConversations, ownAvatars, [purchase]] = await Promise.all([
    db
      .select({ conversationId: conversations.conversationId, name: conversations.name, model: conversations.model })
      .from(conversations)
      .where(conversationPolicy.visibleTo(actor))
      .orderBy(asc(conversations.createdAt), asc(conversations.conversationId))
      .limit(ONBOARDING_CONVERSATION_CAP),
    // The user's own avatars in this context; the defaults (conversation_assistant, Super Fetch) do not count.
    db
      .select({ avatarId: avatars.avatarId })
      .from(avatars)
      .where(and(eq(avatars.userId, userId), inContext(avatars.organizationId, actor), isNull(avatars.kind)))
      .limit(1),
    db
      .select({ purchase: { purchaseId: purchases.purchaseId, status: purchases.status, createdAt: purchases.createdAt }, product: { productId: products.productId, name: products.name, videoSrc: products.videoSrc } })
      .from(purchases)
      .leftJoin(products, eq(products.productId, purchases.productId))
      .where(and(eq(purchases.userId, userId), inContext(purchases.organizationId, actor), inArray(purchases.status, [...ONBOARDING_PURCHASE_STATUSES])))
      .orderBy(desc(purchases.createdAt), desc(purchases.purchaseId))
      .limit(1),
  ]);
  const first = firstConversations[0] ?? null;
  const ownsAvatar = ownAvatars.length > 0;
  return {
    conversation_count: firstConversations.length,
    first_conversation: first ? { conversation_id: first.conversationId, name: first.name, model: first.model } : null,
    owns_avatar: ownsAvatar,
    purchase: purchase
      ? {
          purchase_id: purchase.purchase.purchaseId,
          status: purchase.purchase.status,
          createdAt: purchase.purchase.createdAt.toISOString(),
          product: purchase.product ? { product_id: purchase.product.productId, name: purchase.product.name, video_src: purchase.product.videoSrc } : null,
        }
      : null,
    needs_onboarding: firstConversations.length <= 1 && !ownsAvatar,
  };
}
