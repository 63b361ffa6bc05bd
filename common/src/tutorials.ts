// Tutorials (spec part 2 §2 "Tutorials", §3 "Tutorial", §7 "Tutorials"; issue 15 item 5): requests and
// responses of /api/tutorials, shared by server and web, and the one rule deciding how a video plays.
// Everyone with access lists and watches them; staff admins create, edit, order and delete them.
import { z } from 'zod';
import { LANGUAGES } from './constants';
import { id, idParam, text } from './schema-kit';

export const TUTORIALS_PAGE_SIZE = 24;
export const TUTORIAL_NAME_MAX = 200;
export const TUTORIAL_DESCRIPTION_MAX = 2000;
export const TUTORIAL_URL_MAX = 2048;
/** Ids one reorder may carry (a page of the list, or two neighbours swapped). */
export const TUTORIAL_ORDER_MAX = 500;

export const tutorialLanguage = z.enum(LANGUAGES);
export type TutorialLanguage = z.infer<typeof tutorialLanguage>;

// ---- how a video plays ----

/**
 * Hosts whose links play in an embedded player. The player's address is rebuilt from the video id we
 * parse (never the link as given), so nothing else a link carries reaches the iframe.
 */
const YOUTUBE_HOSTS = ['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtu.be', 'youtube-nocookie.com', 'www.youtube-nocookie.com'];
const VIMEO_HOSTS = ['vimeo.com', 'www.vimeo.com', 'player.vimeo.com'];
export const TUTORIAL_EMBED_HOSTS = [...YOUTUBE_HOSTS, ...VIMEO_HOSTS] as const;

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;

export type TutorialPlayer =
  | { kind: 'embed'; provider: 'youtube' | 'vimeo'; videoId: string; url: string }
  | { kind: 'video'; url: string }
  | { kind: 'invalid' };

/** An absolute http(s) URL without credentials, or null. */
function httpUrl(value: string): URL | null {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.username || parsed.password) return null;
  return parsed;
}

function youtubeId(url: URL): string | null {
  const path = url.pathname.split('/').filter(Boolean);
  const candidate = url.hostname === 'youtu.be' ? path[0] : path[0] === 'watch' ? url.searchParams.get('v') : ['embed', 'shorts', 'live', 'v'].includes(path[0] ?? '') ? path[1] : null;
  return candidate && YOUTUBE_ID.test(candidate) ? candidate : null;
}

function vimeoId(url: URL): string | null {
  const path = url.pathname.split('/').filter(Boolean);
  const candidate = url.hostname === 'player.vimeo.com' ? (path[0] === 'video' ? path[1] : null) : path[path.length - 1];
  return candidate && VIMEO_ID.test(candidate) ? candidate : null;
}

/**
 * How a tutorial's src plays (spec part 2 §2: "/tutorials/{tutorial_id} plays the video (src link)"):
 * YouTube and Vimeo links in their embedded player, any other http(s) address (an .mp4 on a CDN) in a
 * <video> element; anything else (javascript:, data:, a YouTube link without a video)
 * is invalid — refused on save, and never rendered.
 */
export function tutorialPlayer(src: string): TutorialPlayer {
  const url = httpUrl(src);
  if (!url) return { kind: 'invalid' };
  const host = url.hostname.toLowerCase();
  if (YOUTUBE_HOSTS.includes(host)) {
    const videoId = youtubeId(url);
    return videoId ? { kind: 'embed', provider: 'youtube', videoId, url: `https://www.youtube-nocookie.com/embed/${videoId}` } : { kind: 'invalid' };
  }
  if (VIMEO_HOSTS.includes(host)) {
    const videoId = vimeoId(url);
    return videoId ? { kind: 'embed', provider: 'vimeo', videoId, url: `https://player.vimeo.com/video/${videoId}` } : { kind: 'invalid' };
  }
  return { kind: 'video', url: url.href };
}

/** Where the seeded tutorials' thumbnails are served from (shipped with the web app). */
export const SEED_THUMBNAIL_PATH = '/images/tutorials/';

/** A thumbnail given as an address: http(s), a public image of this server (/api/files/{name}.{type}) or a shipped one. */
export function isTutorialThumbnailUrl(value: string): boolean {
  return (
    /^\/api\/files\/[A-Za-z0-9_-]{16,64}\.[a-z0-9]{2,5}$/.test(value) || /^\/images\/tutorials\/[a-z0-9-]{1,80}\.svg$/.test(value) || httpUrl(value) !== null
  );
}

// ---- responses ----

export const TUTORIAL_ACTIONS = ['edit', 'delete', 'reorder'] as const;
export type TutorialAction = (typeof TUTORIAL_ACTIONS)[number];

export const tutorial = z.object({
  tutorial_id: z.number(),
  name: z.string(),
  description: z.string(),
  language: tutorialLanguage,
  /** The video: a YouTube or Vimeo link, or a video file's address (tutorialPlayer). */
  src: z.string(),
  /** The thumbnail's address (an uploaded public image or a URL), or null (the web shows a placeholder). */
  thumbnail: z.string().nullable(),
  /** The uploaded thumbnail image, when the thumbnail is one. */
  thumbnail_file_id: z.number().nullable(),
  order: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: z.object(Object.fromEntries(TUTORIAL_ACTIONS.map((a) => [a, z.boolean()])) as Record<TutorialAction, z.ZodBoolean>),
});
export type Tutorial = z.infer<typeof tutorial>;

export const tutorialList = z.object({
  tutorials: z.array(tutorial),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  language: tutorialLanguage,
  /** Whether the actor may create and reorder tutorials (staff admins). */
  canManage: z.boolean(),
});
export type TutorialList = z.infer<typeof tutorialList>;

export const deletedTutorialResponse = z.object({ deleted: z.literal(true) });
export const reorderTutorialsResponse = z.object({ tutorials: z.array(tutorial) });

// ---- requests ----

/** GET /tutorials: language (absent: the user's own), a search in name and description, page from 1. */
export const listTutorialsQuery = z.object({
  language: tutorialLanguage.optional(),
  query: text().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type ListTutorialsQuery = z.input<typeof listTutorialsQuery>;

export const tutorialIdParams = z.object({ id: idParam() });

const srcField = text({ error: 'tutorial_src_invalid' })
  .trim()
  .min(1, { error: 'tutorial_src_required' })
  .max(TUTORIAL_URL_MAX, { error: 'tutorial_src_invalid' })
  .refine((value) => tutorialPlayer(value).kind !== 'invalid', { error: 'tutorial_src_invalid' });

const thumbnailField = text({ error: 'tutorial_thumbnail_invalid' })
  .trim()
  .max(TUTORIAL_URL_MAX, { error: 'tutorial_thumbnail_invalid' })
  .refine((value) => value === '' || isTutorialThumbnailUrl(value), { error: 'tutorial_thumbnail_invalid' });

const fields = {
  name: text({ error: 'tutorial_name_required' }).trim().min(1, { error: 'tutorial_name_required' }).max(TUTORIAL_NAME_MAX, { error: 'tutorial_name_too_long' }),
  description: text().trim().max(TUTORIAL_DESCRIPTION_MAX, { error: 'tutorial_description_too_long' }),
  language: tutorialLanguage,
  src: srcField,
  /** A thumbnail URL; '' or null: none (or the uploaded image, thumbnail_file_id). */
  thumbnail: thumbnailField.nullable(),
  /** An image uploaded with POST /files as public (`public=true`); null removes it. */
  thumbnail_file_id: id().nullable(),
};

/** POST /tutorials (staff admins). New tutorials go last in their language. */
export const createTutorialRequest = z.object({
  name: fields.name,
  description: fields.description.optional(),
  language: fields.language,
  src: fields.src,
  thumbnail: fields.thumbnail.optional(),
  thumbnail_file_id: fields.thumbnail_file_id.optional(),
});
export type CreateTutorialRequest = z.input<typeof createTutorialRequest>;

/** PUT /tutorials (staff admins; spec part 2 §4 save rule): fields left out stay as they are. */
export const updateTutorialRequest = z.object({
  tutorial_id: id(),
  name: fields.name.optional(),
  description: fields.description.optional(),
  language: fields.language.optional(),
  src: fields.src.optional(),
  thumbnail: fields.thumbnail.optional(),
  thumbnail_file_id: fields.thumbnail_file_id.optional(),
});
export type UpdateTutorialRequest = z.input<typeof updateTutorialRequest>;

/**
 * PUT /tutorials/order (staff admins): tutorials of one language in their new order. They take the places
 * they held between them, so a page of the list or two swapped neighbours can be sent alone.
 */
export const reorderTutorialsRequest = z.object({
  ids: z
    .array(id(), { error: 'tutorial_order_invalid' })
    .min(1, { error: 'tutorial_order_invalid' })
    .max(TUTORIAL_ORDER_MAX, { error: 'tutorial_order_invalid' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'tutorial_order_invalid' }),
});
export type ReorderTutorialsRequest = z.input<typeof reorderTutorialsRequest>;
