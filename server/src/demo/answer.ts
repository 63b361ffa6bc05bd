// What the offline demo model writes (the OpenAI emulator's `compose` hook, demo/ai.ts). The emulator's own
// composer writes English filler of a fixed length; a newcomer trying the demo expects the answer to follow
// the request the way a real model would, whatever feature sends it:
// - the language asked for ("... in Spanish", "responde en español"), else the language of the prompt;
// - a count asked for ("exactly 15 hashtags", "5 topic ideas", "dame 3 ideas"): that many items, as hashtags
//   when hashtags are asked for, else as short titles; a JSON array when one is asked for, else a numbered list.
// Anything else in English is left to the emulator's composer (null), so answers stay what tests expect.
// hashText and seededRandom: the same request gives the same answer.
import { hashText, seededRandom, stripDirectives } from '@pluma/emulators/answer';

export type DemoLang = 'en' | 'es';
interface Turn {
  role: string;
  content: string;
}

/** The most items one answer lists (a typo like "exactly 100000" must not build a huge answer). */
export const DEMO_MAX_ITEMS = 100;

const ES_WORDS = new Set(
  ('de la que el en y los del las por un para con una su al lo como más pero sus le ya este porque esta cuando muy sin sobre también ' +
    'me hasta hay donde desde todo nos todos uno les ni otros ese eso ante ellos esto antes algunos qué unos yo otro otras otra tanto esa ' +
    'estos mucho nada muchos cual poco ella estar estas algunas algo mi mis tú te tu tus es son cómo dónde cuál cuándo hola gracias ' +
    'escribe dame quiero puedes necesito ayuda sobre ideas temas consejos favor buenos buenas días tardes noches estoy eres soy mejor')
    .split(' '),
);
const EN_WORDS = new Set(
  ('the and of to is in it you that for on with are this be what how write my me please can could would should your about give ' +
    'hello hi thanks an as at by from have has was were will do does which who when where why tips ideas topics some make help need want')
    .split(' '),
);

/** The language a turn's text is written in, or null when it cannot tell. */
export function detectLanguage(text: string): DemoLang | null {
  const words = text.toLowerCase().match(/[\p{L}]+/gu) ?? [];
  let es = /[¿¡ñ]/.test(text) ? 2 : 0;
  let en = 0;
  for (const word of words) {
    if (ES_WORDS.has(word)) es++;
    if (EN_WORDS.has(word)) en++;
    if (/[áéíóúü]/.test(word)) es += 0.5;
  }
  if (es === en) return null;
  return es > en ? 'es' : 'en';
}

/** A language the request names for the answer ("in Spanish", "en español", "in English", "en inglés"). */
export function requestedLanguage(text: string): DemoLang | null {
  const spanish = /\b(?:in|into)\s+spanish\b|\ben\s+espa[ñn]ol\b|\bspanish\s+language\b/i.exec(text);
  const english = /\b(?:in|into)\s+english\b|\ben\s+ingl[ée]s\b/i.exec(text);
  if (spanish && english) return spanish.index > english.index ? 'es' : 'en';
  return spanish ? 'es' : english ? 'en' : null;
}

export type ItemKind = 'hashtags' | 'titles';

export interface CountRequest {
  count: number;
  kind: ItemKind;
  json: boolean;
}

const COUNTED_EN = 'hashtags?|topics?|topic ideas|ideas|titles?|headlines?|items?|tips|suggestions|options|names|questions|points|things|ways|reasons|examples';
const COUNTED_ES = 'hashtags?|temas?|ideas?|t[íi]tulos?|titulares|consejos|sugerencias|opciones|nombres|preguntas|puntos|cosas|formas|razones|ejemplos';
const COUNT =
  new RegExp(`\\b(?:exactly|exactamente)\\s+(\\d{1,6})\\b|\\b(\\d{1,6})\\s+(?:[\\p{L}-]+,?\\s+){0,3}?(?:${COUNTED_EN}|${COUNTED_ES})\\b`, 'iu');

/** The count a request asks for, what it counts and whether it wants a JSON array; null when none is asked. */
export function countRequest(text: string): CountRequest | null {
  const match = COUNT.exec(text);
  if (!match) return null;
  const count = Math.min(Number(match[1] ?? match[2]), DEMO_MAX_ITEMS);
  if (count < 1) return null;
  return { count, kind: /hashtag/i.test(text) ? 'hashtags' : 'titles', json: /\bjson\b/i.test(text) };
}

const STOP = new Set([...ES_WORDS, ...EN_WORDS, 'exactly', 'exactamente', 'hashtag', 'hashtags', 'give', 'list', 'generate', 'genera', 'lista']);

/** The words of the subject worth repeating (no stop words, counts or directives), at most `max`. */
function subjectWords(subject: string, max: number): string[] {
  const words = stripDirectives(subject).match(/[\p{L}\p{N}]+/gu) ?? [];
  const kept = words.filter((w) => w.length > 2 && !/^\d+$/.test(w) && !STOP.has(w.toLowerCase()));
  return [...new Set(kept.map((w) => w.toLowerCase()))].slice(0, max);
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const ascii = (word: string) => word.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

const HASHTAG_WORDS: Record<DemoLang, string[]> = {
  en: ['Tips', 'Ideas', 'Trends', 'Community', 'Strategy', 'Content', 'Inspiration', 'Business', 'Growth', 'Creative', 'Stories', 'Daily', 'Life', 'Goals', 'Digital', 'Local', 'Lovers', 'Guide', 'Today', 'Style'],
  es: ['Consejos', 'Ideas', 'Tendencias', 'Comunidad', 'Estrategia', 'Contenido', 'Inspiracion', 'Negocio', 'Crecimiento', 'Creativo', 'Historias', 'Diario', 'Vida', 'Metas', 'Digital', 'Local', 'Amantes', 'Guia', 'Hoy', 'Estilo'],
};

/** `count` distinct hashtags from the subject's words and the language's common tags. */
export function hashtags(subject: string, count: number, lang: DemoLang): string[] {
  const words = subjectWords(subject, 4).map((w) => capitalize(ascii(w)));
  const base = words.length ? words : [lang === 'es' ? 'Contenido' : 'Content'];
  const extras = HASHTAG_WORDS[lang];
  const out = new Set<string>();
  out.add(`#${base.join('')}`);
  for (const word of base) out.add(`#${word}`);
  for (let i = 0; out.size < count; i++) {
    const word = base[i % base.length];
    const extra = extras[i % extras.length];
    const round = Math.floor(i / extras.length);
    out.add(round === 0 ? `#${word}${extra}` : round === 1 ? `#${extra}${word}` : `#${word}${extra}${round}`);
  }
  return [...out].slice(0, count);
}

const TITLES: Record<DemoLang, ((s: string, n: number) => string)[]> = {
  en: [
    (s) => `How ${s} can change the way you work`,
    (s, n) => `${n} mistakes to avoid with ${s}`,
    (s) => `Why ${s} matters more than ever`,
    (s) => `A beginner's guide to ${s}`,
    (s) => `${capitalize(s)}: what nobody tells you`,
    (s) => `What your audience wants to know about ${s}`,
    (s) => `The future of ${s} in one page`,
    (s, n) => `${n} quick wins for ${s} this week`,
  ],
  es: [
    (s) => `Cómo ${s} puede cambiar tu forma de trabajar`,
    (s, n) => `${n} errores que debes evitar con ${s}`,
    (s) => `Por qué ${s} importa más que nunca`,
    (s) => `Guía para principiantes sobre ${s}`,
    (s) => `${capitalize(s)}: lo que nadie te cuenta`,
    (s) => `Lo que tu audiencia quiere saber sobre ${s}`,
    (s) => `El futuro de ${s} en una página`,
    (s, n) => `${n} mejoras rápidas de ${s} para esta semana`,
  ],
};

/** `count` distinct short titles (at most 12 words) about the subject. */
export function titles(subject: string, count: number, lang: DemoLang): string[] {
  // A short subject is used as written ("marketing para cafeterías"); a long one by its main words.
  const plain = stripDirectives(subject).replace(/[*_`#|[\]<>"“”]/g, '').replace(/[.!?¿¡]+/g, ' ').replace(/\s+/g, ' ').trim();
  const words = plain.split(' ').filter(Boolean).length <= 4 ? [plain] : subjectWords(subject, 4);
  const joined = words.join(' ');
  // Written mid-sentence: "Cómo marketing para…", unless it starts with an acronym ("SEO").
  const first = joined.split(' ')[0] ?? '';
  const topic = (first === first.toUpperCase() ? joined : joined.charAt(0).toLowerCase() + joined.slice(1)) || (lang === 'es' ? 'tu contenido' : 'your content');
  const templates = TITLES[lang];
  const start = hashText(topic) % templates.length;
  return Array.from({ length: count }, (_, i) => {
    const title = templates[(start + i) % templates.length](topic, 3 + (i % 5));
    const round = Math.floor(i / templates.length);
    return round === 0 ? title : `${title} (${lang === 'es' ? 'parte' : 'part'} ${round + 1})`;
  });
}

const ES_VOCABULARY = (
  'escritura borrador audiencia voz historia mensaje claro simple idea lector titular marca contenido plan meta valor ejemplo detalle ' +
  'esquema tono estructura párrafo enfoque tema ángulo gancho llamada acción revisión edición contexto beneficio resultado equipo cliente ' +
  'producto lanzamiento campaña canal publicación correo resumen pregunta respuesta estrategia calendario presupuesto métrica crecimiento ' +
  'señal patrón método nota cuidadoso fuerte claro tranquilo audaz constante fresco directo cálido honesto útil práctico conciso vívido'
).split(' ');
const ES_CONNECTORS = ['y', 'con', 'para', 'sobre', 'porque', 'mientras', 'así', 'luego', 'cuando', 'mediante'];

/** A Spanish answer shaped like the emulator's English one: a title, paragraphs, a list, a table and a code block. */
export function spanishAnswer(prompt: string, words = 120): string {
  const random = seededRandom(hashText(`${words}:${prompt}`));
  const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const sentence = (size: number) => {
    const out = Array.from({ length: size }, (_, i) => (i > 0 && i % 5 === 3 ? pick(ES_CONNECTORS) : pick(ES_VOCABULARY)));
    return `${capitalize(out.join(' '))}.`;
  };
  const paragraph = (size: number) => {
    const sentences: string[] = [];
    for (let left = size; left > 0; ) {
      const n = Math.min(left, 6 + Math.floor(random() * 10));
      sentences.push(sentence(n));
      left -= n;
    }
    return sentences.join(' ');
  };
  const topic = stripDirectives(prompt).split(' ').slice(0, 6).join(' ').replace(/[*_`#|[\]<>]/g, '');
  const blocks: string[] = [];
  if (topic) blocks.push(`### ${topic}`);
  blocks.push(paragraph(30));
  blocks.push(Array.from({ length: 3 + Math.floor(random() * 3) }, () => `- **${pick(ES_VOCABULARY)}**: ${sentence(4)}`).join('\n'));
  blocks.push(['| Elemento | Puntuación | Listo |', '| --- | --- | --- |', ...Array.from({ length: 3 }, (_, i) => `| ${pick(ES_VOCABULARY)} | ${1 + Math.floor(random() * 99)} | ${i === 0 ? 'sí' : 'no'} |`)].join('\n'));
  // A code block too, as the emulator's English answer has: the editor and exports see every markdown feature.
  const name = pick(ES_VOCABULARY).normalize('NFD').replace(/[^a-z]/g, '') || 'valor';
  blocks.push(['```ts', `const ${name} = ${1 + Math.floor(random() * 999)};`, `console.log('${name}', ${name} * 2);`, '```'].join('\n'));
  blocks.push(paragraph(Math.max(words - 60, 20)));
  return blocks.join('\n\n');
}

/** Lone surrogates dropped: a model's output is always well-formed text, whatever the prompt held. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '');

/** The demo model's answer to a request's turns, or null to leave it to the emulator's composer. */
export function demoAnswer(sent: Turn[]): string | null {
  const turns = sent.map((turn) => ({ role: turn.role, content: wellFormed(turn.content) }));
  const lastUser = [...turns].reverse().find((turn) => turn.role === 'user')?.content ?? '';
  const instructions = turns.filter((turn) => turn.role === 'system' || turn.role === 'developer').map((turn) => turn.content).join('\n');
  const request = `${instructions}\n${lastUser}`;
  const lang = requestedLanguage(request) ?? detectLanguage(lastUser) ?? detectLanguage(instructions) ?? 'en';
  const counted = countRequest(instructions) ?? countRequest(lastUser);
  if (counted) {
    const items = counted.kind === 'hashtags' ? hashtags(lastUser, counted.count, lang) : titles(lastUser, counted.count, lang);
    return counted.json ? JSON.stringify(items) : items.map((item, i) => (counted.kind === 'hashtags' ? item : `${i + 1}. ${item}`)).join('\n');
  }
  if (lang === 'es') return spanishAnswer(lastUser);
  // English: the emulator's own answer (composeAnswer), which tests and the journeys know.
  return null;
}
