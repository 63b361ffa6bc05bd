// GET /api/users/onboarding (spec part 2 §2 "Shell and session routing", §4): what the start-up check of a
// user with a default organization needs, in the request's context (Personal, or the active organization).
import { z } from 'zod';

/** spec part 2 §2: "at most one conversation" — the count stops at 2 (2 means two or more). */
export const ONBOARDING_CONVERSATION_CAP = 2;

/** spec part 2 §4: the purchases onboarding looks at (the newest by createdAt is chosen). */
export const ONBOARDING_PURCHASE_STATUSES = ['active', 'completed'] as const;

export const onboardingStatus = z.object({
  /** The user's own conversations in this context, counted up to ONBOARDING_CONVERSATION_CAP. */
  conversation_count: z.number(),
  /** The user's first conversation in this context (the walkthrough shows it). */
  first_conversation: z.object({ conversation_id: z.number(), name: z.string(), model: z.string().nullable() }).nullable(),
  /** Whether the user owns an avatar in this context (the defaults are not counted). */
  owns_avatar: z.boolean(),
  /** The latest active or completed purchase of this context, with its product's walkthrough video. */
  purchase: z
    .object({
      purchase_id: z.number(),
      status: z.string(),
      createdAt: z.string(),
      product: z.object({ product_id: z.number(), name: z.string(), video_src: z.string().nullable() }).nullable(),
    })
    .nullable(),
  /** spec part 2 §2: at most one conversation and no avatar. */
  needs_onboarding: z.boolean(),
});
export type OnboardingStatus = z.infer<typeof onboardingStatus>;
