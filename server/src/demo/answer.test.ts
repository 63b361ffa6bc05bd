// The offline demo model's answers (issue 30 item 3): the language asked for or written in, and the counts
// asked for — unit checks of demoAnswer, then through the real app whose ideas generators are answered by the
// demo model (no operator key: createTestApp's DEMO_AI), as a newcomer would try them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { countRequest, demoAnswer, detectLanguage, requestedLanguage } from './answer';

const ES_WORD = /\b(el|la|de|para|con|sobre|qué|cómo)\b/i;

describe('the demo model answers', () => {
  it('tells the language asked for, else the one written in', () => {
    expect(requestedLanguage('Give 3 ideas, written in Spanish.')).toBe('es');
    expect(requestedLanguage('Responde en español, por favor')).toBe('es');
    expect(requestedLanguage('Translate this into English')).toBe('en');
    expect(requestedLanguage('Write a post')).toBeNull();
    expect(detectLanguage('¿Cómo escribo un buen titular para mi blog?')).toBe('es');
    expect(detectLanguage('Hola')).toBe('es');
    expect(detectLanguage('How do I write a good headline for my blog?')).toBe('en');
    expect(detectLanguage('12345')).toBeNull();
  });

  it('reads the count and the kind asked for', () => {
    expect(countRequest('Give exactly 15 distinct, relevant hashtags about it. Answer with a JSON array of strings only')).toEqual({ count: 15, kind: 'hashtags', json: true });
    expect(countRequest('Dame 4 títulos sobre perros')).toEqual({ count: 4, kind: 'titles', json: false });
    expect(countRequest('List 3 catchy topic ideas')).toEqual({ count: 3, kind: 'titles', json: false });
    expect(countRequest('Write a post about 3 dogs')).toBeNull();
  });

  it('writes well-formed text whatever the prompt holds (a lone surrogate is dropped)', () => {
    const answer = demoAnswer([{ role: 'user', content: 'Dame 3 títulos sobre caf\uD800és' }]) ?? '';
    expect(answer.split('\n')).toHaveLength(3);
    expect(answer).toContain('cafés');
    expect(answer).not.toContain('\uD800');
  });

  it('answers in Spanish a Spanish prompt and leaves English chat to the emulator', () => {
    const es = demoAnswer([{ role: 'user', content: '¿Cómo escribo un buen titular para mi blog?' }]);
    expect(es).toMatch(ES_WORD);
    expect(es).toContain('| Elemento | Puntuación | Listo |');
    expect(demoAnswer([{ role: 'user', content: 'How do I write a good headline?' }])).toBeNull();
  });

  it('lists exactly the count asked, as a JSON array when asked, in the language asked', () => {
    for (const count of [10, 15, 20]) {
      const answer = demoAnswer([
        { role: 'system', content: `Give exactly ${count} distinct, relevant hashtags about the subject the user sends, in Spanish. Answer with a JSON array of strings only.` },
        { role: 'user', content: 'Marketing para cafeterías' },
      ]);
      const items = JSON.parse(answer ?? '[]') as string[];
      expect(items).toHaveLength(count);
      expect(new Set(items.map((i) => i.toLowerCase())).size).toBe(count);
      for (const item of items) expect(item).toMatch(/^#[\p{L}\p{N}]+$/u);
    }
    const topics = demoAnswer([{ role: 'user', content: 'Dame 5 ideas de temas sobre huertos urbanos' }]) ?? '';
    const lines = topics.split('\n');
    expect(lines).toHaveLength(5);
    for (const [i, line] of lines.entries()) {
      expect(line.startsWith(`${i + 1}. `)).toBe(true);
      expect(line.split(' ').length).toBeLessThanOrEqual(13);
    }
    expect(topics).toMatch(ES_WORD);
  });
});

describe('the demo model through the app (DEMO_AI, no operator key)', () => {
  let t: TestApp;
  let lucia: BuiltUser;
  let ana: BuiltUser;
  const call = (who: BuiltUser, url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: who.auth, payload });

  beforeAll(async () => {
    t = await createTestApp();
    lucia = await buildUser(t.ctx, { access: true, lang: 'es' });
    ana = await buildUser(t.ctx, { access: true });
  }, 60_000);
  afterAll(async () => t?.close());

  it('gives the hashtags and topics counts asked, in the user’s language', async () => {
    const tags = await call(lucia, '/api/ideas/hashtags', { subject: 'Cafeterías de barrio', count: 15 });
    expect(tags.statusCode, tags.body).toBe(201);
    expect(tags.json()).toMatchObject({ language: 'es', count: 15 });
    expect(tags.json().items).toHaveLength(15);
    expect(tags.json().items.join(' ')).toMatch(/Cafeterias/);

    for (const count of [2, 5]) {
      const topics = await call(lucia, '/api/ideas/topics', { subject: 'Huertos urbanos', count });
      expect(topics.statusCode, topics.body).toBe(201);
      expect(topics.json().items).toHaveLength(count);
      expect(topics.json().items.join(' ')).toMatch(ES_WORD);
    }
    const english = await call(ana, '/api/ideas/topics', { subject: 'Urban gardens', count: 4 });
    expect(english.json().items).toHaveLength(4);
    expect(english.json().items.join(' ')).not.toMatch(/\b(para|sobre|cómo)\b/);
    expect(english.json().items.join(' ')).toContain('urban gardens');
  });
});
