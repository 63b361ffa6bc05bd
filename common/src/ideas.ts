// Topics and hashtags generators (spec part 2 §2 "Topics and hashtags": the topic generator asks for 2 to 5
// ideas, the hashtag generator 10 to 20; messages carry message_type_id 2 hashtags, 3 topics; routes /topics
// and /hashtags), shared by server and web. docs/decisions.md "Topics and hashtags".
import { z } from 'zod';
import { LANGUAGES } from './constants';
import { id, idParam, text } from './schema-kit';

export const IDEA_KINDS = ['topics', 'hashtags'] as const;
export type IdeaKind = (typeof IDEA_KINDS)[number];

/** spec part 2 §2: message_type_id 2 hashtags, 3 topics. */
export const IDEA_MESSAGE_TYPE: Record<IdeaKind, 2 | 3> = { hashtags: 2, topics: 3 };

/** How many ideas one request may ask for (spec part 2 §2), and the count the form starts with. */
export const IDEA_COUNT: Record<IdeaKind, { min: number; max: number; initial: number }> = {
  topics: { min: 2, max: 5, initial: 5 },
  hashtags: { min: 10, max: 20, initial: 15 },
};

/** The subject of a request: a sentence or a short brief, not a document. */
export const IDEA_SUBJECT_MAX = 1000;
/** One idea as stored (a topic title; a hashtag is far shorter). */
export const IDEA_ITEM_MAX = 200;
/** History entries per page (newest first). */
export const IDEAS_PAGE_SIZE = 10;

export const ideaKindParams = z.object({ kind: z.enum(IDEA_KINDS) });
export const ideaIdParams = z.object({ id: idParam() });

const subject = text()
  .trim()
  .min(1, { error: 'ideas_subject_required' })
  .max(IDEA_SUBJECT_MAX, { error: 'ideas_subject_too_long' });

const countOf = (kind: IdeaKind) => {
  const { min, max, initial } = IDEA_COUNT[kind];
  const error = kind === 'topics' ? 'ideas_topics_count' : 'ideas_hashtags_count';
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error }).default(initial);
};

const requestOf = (kind: IdeaKind) =>
  z.object({
    subject,
    count: countOf(kind),
    /** The language of the ideas; the user's own when absent. */
    language: z.enum(LANGUAGES).optional(),
    /** An avatar the actor may use (own in this context, public, or their defaults): its voice shapes the ideas. */
    avatar_id: id().nullable().optional(),
    organization_id: idParam().nullable().optional(),
  });

/** POST /ideas/topics and POST /ideas/hashtags. */
export const generateIdeasRequest = { topics: requestOf('topics'), hashtags: requestOf('hashtags') } as const;
export type GenerateIdeasRequest = z.input<(typeof generateIdeasRequest)['topics']>;

export const listIdeasQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  organization_id: idParam().optional(),
});

export const IDEA_ACTIONS = ['read', 'delete'] as const;
export type IdeaAction = (typeof IDEA_ACTIONS)[number];

export const idea = z.object({
  idea_id: z.number(),
  /** 2 hashtags, 3 topics. */
  message_type_id: z.union([z.literal(2), z.literal(3)]),
  kind: z.enum(IDEA_KINDS),
  subject: z.string(),
  language: z.enum(LANGUAGES),
  /** How many were asked for; `items` may hold fewer when the model gave fewer. */
  count: z.number(),
  items: z.array(z.string()),
  avatar_id: z.number().nullable(),
  avatar_name: z.string().nullable(),
  createdAt: z.string(),
  abilities: z.object({ read: z.boolean(), delete: z.boolean() }),
});
export type Idea = z.infer<typeof idea>;

export const ideaList = z.object({
  ideas: z.array(idea),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type IdeaList = z.infer<typeof ideaList>;
