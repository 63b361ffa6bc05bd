// The seeded template library (DESIGN.md §5 "sample templates"; issue 14 item 2): useful public templates in
// English and Spanish for marketing, email, social media and blogs, with text, number and select fields.
// Written once per install (template_seeds 'library-v1'), so templates, tags or types an admin removes stay
// removed. No author (user_id null): the web shows 'Unknown Admin Name' (spec part 2 §8); admins edit them.
import { checkTemplateDraft } from '@pluma/common/rules/template-fields';
import type { TemplateLanguage } from '@pluma/common/templates';
import { inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { templates, templateSeeds, templateTagLinks, templateTags, templateTypes } from '../../db/schema';

const LIBRARY = 'library-v1';

export const SEED_TYPES = ['Marketing', 'Email', 'Social Media', 'Blog'] as const;
export const SEED_TAGS = ['Ads', 'Copywriting', 'Newsletter', 'Sales', 'Instagram', 'LinkedIn', 'SEO', 'Ideas'] as const;

export interface SeedTemplate {
  key: string;
  language: TemplateLanguage;
  type: (typeof SEED_TYPES)[number];
  tags: (typeof SEED_TAGS)[number][];
  name: string;
  description: string;
  content: string;
}

export const SEED_TEMPLATES: SeedTemplate[] = [
  // ---- English ----
  {
    key: 'en-ad-copy',
    language: 'en',
    type: 'Marketing',
    tags: ['Ads', 'Copywriting'],
    name: 'Ad copy variations',
    description: 'Short ads for a product, in the tone you choose.',
    content:
      'Write [#Variations] short ad copy variations for [Product], aimed at [Target audience]. Highlight this benefit: [Main benefit]. Use a [Tone: persuasive/friendly/bold/professional/] tone. Each variation needs a headline of at most 40 characters and a body of at most 125 characters, and ends with a clear call to action.',
  },
  {
    key: 'en-value-proposition',
    language: 'en',
    type: 'Marketing',
    tags: ['Copywriting', 'Sales'],
    name: 'Value proposition',
    description: 'A clear one-line promise and three supporting points.',
    content:
      'Create a value proposition for [Product or service] for [Target audience], who struggle with [Main problem]. Give one headline sentence, a one-sentence subheadline and three short bullet points with concrete benefits. Avoid jargon; write in a [Tone: confident/warm/playful/] voice.',
  },
  {
    key: 'en-cold-email',
    language: 'en',
    type: 'Email',
    tags: ['Sales'],
    name: 'Cold sales email',
    description: 'A first-contact email that earns a reply.',
    content:
      'Write a cold email from [Sender name and role] to [Recipient role] at [Company type]. Offer: [Offer]. Keep it under [#Words] words, open with something relevant to the recipient, state one concrete benefit, and end with a low-effort question as the call to action. Add three subject line options. Tone: [Tone: formal/friendly/direct/].',
  },
  {
    key: 'en-newsletter',
    language: 'en',
    type: 'Email',
    tags: ['Newsletter'],
    name: 'Newsletter issue',
    description: 'A newsletter with an intro, sections and a sign-off.',
    content:
      'Write a newsletter for [Brand] about [Topic]. Readers: [Audience]. Include a catchy subject line, a short intro, [#Sections] sections with subheadings, and a friendly sign-off with this call to action: [Call to action]. Length: about [#Words] words.',
  },
  {
    key: 'en-instagram-caption',
    language: 'en',
    type: 'Social Media',
    tags: ['Instagram'],
    name: 'Instagram caption',
    description: 'A caption with a hook, emojis and hashtags.',
    content:
      'Write an Instagram caption for a post about [Post topic] for [Brand]. Start with a hook in the first line, keep it [Length: short/medium/long/], use a few fitting emojis, end with a question to drive comments, and add [#Hashtags] relevant hashtags.',
  },
  {
    key: 'en-linkedin-post',
    language: 'en',
    type: 'Social Media',
    tags: ['LinkedIn'],
    name: 'LinkedIn post',
    description: 'A professional post that shares a lesson or an insight.',
    content:
      'Write a LinkedIn post about [Topic] from the point of view of [Author role]. Share this lesson or insight: [Key insight]. Use short paragraphs, one line per idea, no more than [#Words] words, and close with a question for the reader. Style: [Style: storytelling/list/opinion/].',
  },
  {
    key: 'en-blog-outline',
    language: 'en',
    type: 'Blog',
    tags: ['SEO', 'Ideas'],
    name: 'Blog post outline',
    description: 'An SEO-minded outline with headings and key points.',
    content:
      'Create a blog post outline about [Topic] for [Target audience], targeting the keyword [Main keyword]. Give an SEO title, a meta description under 155 characters, [#Sections] H2 sections with two or three key points each, and a conclusion with a call to action. Level: [Level: beginner/intermediate/expert/].',
  },
  {
    key: 'en-blog-intro',
    language: 'en',
    type: 'Blog',
    tags: ['Copywriting'],
    name: 'Blog introduction',
    description: 'An opening paragraph that keeps people reading.',
    content:
      'Write an introduction of about [#Words] words for a blog post titled "[Title]". The reader is [Target audience]. Open with a [Hook: question/statistic/short story/bold statement/], state the problem the post solves, and promise what the reader will learn.',
  },
  // ---- Spanish ----
  {
    key: 'es-anuncio',
    language: 'es',
    type: 'Marketing',
    tags: ['Ads', 'Copywriting'],
    name: 'Variaciones de anuncio',
    description: 'Anuncios cortos para un producto, en el tono que elijas.',
    content:
      'Escribe [#Variaciones] variaciones de anuncio para [Producto], dirigidas a [Público objetivo]. Destaca este beneficio: [Beneficio principal]. Usa un tono [Tono: persuasivo/cercano/atrevido/profesional/]. Cada variación lleva un titular de máximo 40 caracteres, un texto de máximo 125 caracteres y termina con una llamada a la acción clara.',
  },
  {
    key: 'es-propuesta-valor',
    language: 'es',
    type: 'Marketing',
    tags: ['Copywriting', 'Sales'],
    name: 'Propuesta de valor',
    description: 'Una promesa clara en una línea y tres puntos de apoyo.',
    content:
      'Crea una propuesta de valor para [Producto o servicio] dirigida a [Público objetivo], que tiene este problema: [Problema principal]. Incluye un titular de una frase, un subtítulo de una frase y tres viñetas breves con beneficios concretos. Evita la jerga; usa una voz [Voz: segura/cálida/divertida/].',
  },
  {
    key: 'es-correo-ventas',
    language: 'es',
    type: 'Email',
    tags: ['Sales'],
    name: 'Correo de ventas en frío',
    description: 'Un primer correo que consigue respuesta.',
    content:
      'Escribe un correo en frío de [Remitente y cargo] para [Cargo del destinatario] en [Tipo de empresa]. Oferta: [Oferta]. Que tenga menos de [#Palabras] palabras, empiece con algo relevante para el destinatario, mencione un beneficio concreto y termine con una pregunta sencilla como llamada a la acción. Añade tres opciones de asunto. Tono: [Tono: formal/cercano/directo/].',
  },
  {
    key: 'es-boletin',
    language: 'es',
    type: 'Email',
    tags: ['Newsletter'],
    name: 'Boletín informativo',
    description: 'Un boletín con introducción, secciones y despedida.',
    content:
      'Escribe un boletín de [Marca] sobre [Tema]. Lectores: [Audiencia]. Incluye un asunto atractivo, una introducción breve, [#Secciones] secciones con subtítulos y una despedida cordial con esta llamada a la acción: [Llamada a la acción]. Extensión: unas [#Palabras] palabras.',
  },
  {
    key: 'es-instagram',
    language: 'es',
    type: 'Social Media',
    tags: ['Instagram'],
    name: 'Texto para Instagram',
    description: 'Un texto con gancho, emojis y hashtags.',
    content:
      'Escribe el texto de una publicación de Instagram sobre [Tema de la publicación] para [Marca]. Empieza con un gancho en la primera línea, que sea de extensión [Extensión: corta/media/larga/], usa algunos emojis adecuados, termina con una pregunta que invite a comentar y añade [#Hashtags] hashtags relevantes.',
  },
  {
    key: 'es-linkedin',
    language: 'es',
    type: 'Social Media',
    tags: ['LinkedIn'],
    name: 'Publicación de LinkedIn',
    description: 'Una publicación profesional que comparte una lección o una idea.',
    content:
      'Escribe una publicación de LinkedIn sobre [Tema] desde el punto de vista de [Cargo del autor]. Comparte esta lección o idea: [Idea clave]. Usa párrafos cortos, una idea por línea, como máximo [#Palabras] palabras, y cierra con una pregunta para el lector. Estilo: [Estilo: historia/lista/opinión/].',
  },
  {
    key: 'es-esquema-blog',
    language: 'es',
    type: 'Blog',
    tags: ['SEO', 'Ideas'],
    name: 'Esquema de artículo de blog',
    description: 'Un esquema pensado para SEO, con encabezados y puntos clave.',
    content:
      'Crea el esquema de un artículo de blog sobre [Tema] para [Público objetivo], con la palabra clave [Palabra clave principal]. Incluye un título SEO, una meta descripción de menos de 155 caracteres, [#Secciones] secciones H2 con dos o tres puntos clave cada una y una conclusión con llamada a la acción. Nivel: [Nivel: principiante/intermedio/experto/].',
  },
  {
    key: 'es-introduccion-blog',
    language: 'es',
    type: 'Blog',
    tags: ['Copywriting'],
    name: 'Introducción de blog',
    description: 'Un primer párrafo que invita a seguir leyendo.',
    content:
      'Escribe una introducción de unas [#Palabras] palabras para un artículo titulado "[Título]". El lector es [Público objetivo]. Empieza con [Gancho: una pregunta/un dato/una historia breve/una afirmación audaz/], plantea el problema que resuelve el artículo y promete lo que aprenderá el lector.',
  },
];

/** Writes the library, its tags and its types once per install (several nodes may boot at once: locked). */
export async function seedTemplates(ctx: AppContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('pluma:seed:templates'))`);
    const done = await tx.insert(templateSeeds).values({ name: LIBRARY }).onConflictDoNothing().returning();
    if (done.length === 0) return;
    await tx.insert(templateTypes).values(SEED_TYPES.map((name) => ({ name }))).onConflictDoNothing();
    await tx.insert(templateTags).values(SEED_TAGS.map((name) => ({ name }))).onConflictDoNothing();
    const typeRows = await tx.select().from(templateTypes).where(inArray(sql`lower(${templateTypes.name})`, SEED_TYPES.map((n) => n.toLowerCase())));
    const tagRows = await tx.select().from(templateTags).where(inArray(sql`lower(${templateTags.name})`, SEED_TAGS.map((n) => n.toLowerCase())));
    const typeId = new Map(typeRows.map((t) => [t.name.toLowerCase(), t.typeId]));
    const tagId = new Map(tagRows.map((t) => [t.name.toLowerCase(), t.tagId]));
    for (const entry of SEED_TEMPLATES) {
      // A library entry that breaks the field rules is a bug here, not something to ship.
      if (!checkTemplateDraft(entry).valid) throw new Error(`seeded template ${entry.key} is invalid`);
      const [row] = await tx
        .insert(templates)
        .values({
          userId: null,
          organizationId: null,
          name: entry.name,
          description: entry.description,
          content: entry.content,
          typeId: typeId.get(entry.type.toLowerCase()) ?? null,
          language: entry.language,
          public: true,
          editable: false,
          showPrompt: true,
          seedKey: entry.key,
        })
        .onConflictDoNothing()
        .returning({ templateId: templates.templateId });
      if (!row) continue;
      const links = entry.tags.flatMap((t) => {
        const id = tagId.get(t.toLowerCase());
        return id === undefined ? [] : [{ templateId: row.templateId, tagId: id }];
      });
      if (links.length > 0) await tx.insert(templateTagLinks).values(links).onConflictDoNothing();
    }
  });
}
