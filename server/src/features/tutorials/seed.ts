// The first tutorials (DESIGN.md §5: first boot seeds "sample templates and tutorials"; issue 15 item 5):
// public introductions to generative AI and large language models, listed in English and in Spanish.
// Written once per install (tutorial_seeds 'starter-v1'), so tutorials an admin deletes stay deleted and
// edits are never overwritten. The Spanish entries are the same talks (in English, said so in their
// description) until an admin adds Spanish videos.
import { SEED_THUMBNAIL_PATH, tutorialPlayer, type TutorialLanguage } from '@pluma/common/tutorials';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { tutorials, tutorialSeeds } from '../../db/schema';

const STARTER = 'starter-v1';

export interface SeedTutorial {
  key: string;
  language: TutorialLanguage;
  name: string;
  description: string;
  src: string;
}

const youtube = (videoId: string) => ({ src: `https://www.youtube.com/watch?v=${videoId}` });
/** The thumbnails ship with the app (web/public/images/tutorials), so they show offline too. */
export const seedThumbnail = (key: string) => `${SEED_THUMBNAIL_PATH}${key}.svg`;

export const SEED_TUTORIALS: SeedTutorial[] = [
  {
    key: 'en-generative-ai',
    language: 'en',
    name: 'Introduction to generative AI',
    description: 'What generative AI is, how it works and what it can create: a short course by Google Cloud.',
    ...youtube('G2fqAlgmoPo'),
  },
  {
    key: 'en-large-language-models',
    language: 'en',
    name: 'Introduction to large language models',
    description: 'What large language models are, where they help and how prompts shape their answers, by Google Cloud.',
    ...youtube('zizonToFXDs'),
  },
  {
    key: 'en-intro-llms-talk',
    language: 'en',
    name: 'Intro to large language models (1-hour talk)',
    description: 'Andrej Karpathy explains how models like the ones behind chat assistants are trained and what their limits are.',
    ...youtube('zjkBMFhNj_g'),
  },
  {
    key: 'es-ia-generativa',
    language: 'es',
    name: 'Introducción a la IA generativa',
    description: 'Qué es la IA generativa, cómo funciona y qué puede crear: un curso breve de Google Cloud (video en inglés).',
    ...youtube('G2fqAlgmoPo'),
  },
  {
    key: 'es-modelos-de-lenguaje',
    language: 'es',
    name: 'Introducción a los modelos de lenguaje',
    description: 'Qué son los grandes modelos de lenguaje, en qué ayudan y cómo las instrucciones dan forma a sus respuestas, de Google Cloud (video en inglés).',
    ...youtube('zizonToFXDs'),
  },
  {
    key: 'es-charla-modelos-de-lenguaje',
    language: 'es',
    name: 'Los grandes modelos de lenguaje (charla de 1 hora)',
    description: 'Andrej Karpathy explica cómo se entrenan los modelos que hay detrás de los asistentes de chat y cuáles son sus límites (video en inglés).',
    ...youtube('zjkBMFhNj_g'),
  },
];

/** Writes the starter tutorials once per install (several nodes may boot at once: locked). */
export async function seedTutorials(ctx: AppContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('pluma:seed:tutorials'))`);
    const done = await tx.insert(tutorialSeeds).values({ name: STARTER }).onConflictDoNothing().returning();
    if (done.length === 0) return;
    // After whatever an admin already added in each language (same place rule as createTutorial).
    const last = new Map<string, number>();
    for (const row of await tx.select({ language: tutorials.language, last: sql<number>`max(${tutorials.order})` }).from(tutorials).groupBy(tutorials.language)) {
      last.set(row.language, Number(row.last));
    }
    for (const entry of SEED_TUTORIALS) {
      // A seeded link that would not play is a bug here, not something to ship.
      if (tutorialPlayer(entry.src).kind !== 'embed') throw new Error(`seeded tutorial ${entry.key} has no player`);
      const order = (last.get(entry.language) ?? -1) + 1;
      last.set(entry.language, order);
      await tx
        .insert(tutorials)
        .values({ name: entry.name, description: entry.description, language: entry.language, src: entry.src, thumbnailUrl: seedThumbnail(entry.key), order, seedKey: entry.key })
        .onConflictDoNothing();
    }
  });
}
