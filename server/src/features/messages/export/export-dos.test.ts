// Issue "No request may stall the server": PDF and Word exports run in worker threads with a time limit
// and a bound on concurrent workers. Through the real app: a hostile 450k-character text exports while
// /api/health keeps answering; an export past the time limit or beyond the queue gets a translated error.
import { inflateSync } from 'node:zlib';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { exportPoolDefaults } from './export-pool';
import { hostileMarkdown } from './hostile-markdown';

const DEFAULTS = { ...exportPoolDefaults };

/** The text drawn in a PDF: pdfkit writes it as hex strings inside deflated content streams. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  let text = '';
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1], 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const hex of content.matchAll(/<([0-9a-fA-F]+)>/g)) text += Buffer.from(hex[1], 'hex').toString('latin1');
  }
  return text;
}

describe('exports off the event loop', () => {
  let t: TestApp;
  let user: BuiltUser;
  let spanishUser: BuiltUser;

  beforeAll(async () => {
    // The hostile text takes seconds of CPU; on a busy test machine more than the production limit.
    exportPoolDefaults.timeLimitMs = 180_000;
    t = await createTestApp();
    user = await buildUser(t.ctx);
    spanishUser = await buildUser(t.ctx, { lang: 'es' });
  });
  afterAll(async () => {
    Object.assign(exportPoolDefaults, DEFAULTS);
    await t.close();
  });
  afterEach(() => Object.assign(exportPoolDefaults, DEFAULTS, { timeLimitMs: 180_000 }));

  const post = (format: 'pdf' | 'word', text: string, as: BuiltUser = user) =>
    t.app.inject({ method: 'POST', url: `/api/messages/${format}`, headers: as.auth, payload: { text } });

  /** Exports `text` while polling GET /api/health; returns the export and the health statuses seen before it finished. */
  async function exportWhilePolling(format: 'pdf' | 'word', text: string) {
    let finished = false;
    const exporting = post(format, text).finally(() => (finished = true));
    const healthDuringExport: number[] = [];
    while (!finished) {
      const health = await t.app.inject({ url: '/api/health' });
      if (!finished) healthDuringExport.push(health.statusCode);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return { res: await exporting, healthDuringExport };
  }

  it('exports a hostile 450k-character text as PDF and Word while /api/health keeps answering', async () => {
    const text = hostileMarkdown();
    expect(text.length).toBeGreaterThan(400_000);

    const pdf = await exportWhilePolling('pdf', text);
    expect(pdf.res.statusCode).toBe(200);
    expect(pdf.res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The key assertion: other requests were answered while the export was running.
    expect(pdf.healthDuringExport.length).toBeGreaterThanOrEqual(3);
    expect(new Set(pdf.healthDuringExport)).toEqual(new Set([200]));

    const word = await exportWhilePolling('word', text);
    expect(word.res.statusCode).toBe(200);
    expect(strFromU8(unzipSync(word.res.rawPayload)['word/document.xml'])).toContain('item 10');
    expect(word.healthDuringExport.length).toBeGreaterThanOrEqual(3);
    expect(new Set(word.healthDuringExport)).toEqual(new Set([200]));
  }, 600_000);

  it('renders ordinary markdown: headings, lists, tasks, strikethrough, links, tables', async () => {
    const text = [
      '# Launch plan',
      '',
      'Intro with **bold**, ~~old~~ and a [guide](https://example.com/guide).',
      '',
      '- [x] booked the venue',
      '- first',
      '  - nested detail',
      '',
      '| Col | Val |',
      '| --- | --- |',
      '| alpha | 1 |',
      '',
      '<script>alert(1)</script>',
    ].join('\n');
    const word = await post('word', text);
    expect(word.statusCode).toBe(200);
    const xml = strFromU8(unzipSync(word.rawPayload)['word/document.xml']);
    expect(xml).toContain('Heading1');
    expect(xml).toContain('Launch plan');
    expect(xml).toContain('<w:strike/>');
    expect(xml).toContain('guide (https://example.com/guide)');
    expect(xml).toContain('☒ ');
    expect(xml).toContain('<w:ilvl w:val="1"/>');
    expect(xml).toContain('alpha');
    expect(xml).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');

    const pdf = await post('pdf', text);
    expect(pdf.statusCode).toBe(200);
    const drawn = pdfText(pdf.rawPayload);
    for (const expected of ['Launch plan', 'booked the venue', 'nested detail', 'alpha', '<script>alert(1)</script>']) {
      expect(drawn.replace(/\s+/g, ' ')).toContain(expected);
    }
  });

  it('stops an export past the time limit with a translated error, and the next one works', async () => {
    exportPoolDefaults.timeLimitMs = 50;
    const tooLong = await post('pdf', hostileMarkdown());
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json()).toMatchObject({ error: 'export_too_complex', message: 'This text is too complex to export. Shorten it or simplify its formatting and try again.' });
    const spanish = await post('word', hostileMarkdown(), spanishUser);
    expect(spanish.statusCode).toBe(422);
    expect(spanish.json().message).toBe('Este texto es demasiado complejo para exportarlo. Acórtalo o simplifica su formato e inténtalo de nuevo.');

    Object.assign(exportPoolDefaults, { timeLimitMs: 180_000 });
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    expect((await post('pdf', '# fine')).statusCode).toBe(200);
  });

  it('refuses exports beyond the workers and the queue with 503 and a translated message', async () => {
    Object.assign(exportPoolDefaults, { maxWorkers: 1, maxQueued: 1 });
    // Three at once, each long enough that all three arrive while the first renders: one runs, one waits, one is refused.
    const heavy = hostileMarkdown(100_000);
    const results = await Promise.all([post('pdf', heavy, spanishUser), post('word', heavy, spanishUser), post('pdf', heavy, spanishUser)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 503]);
    const refused = results.find((r) => r.statusCode === 503);
    expect(refused?.json()).toMatchObject({ error: 'export_busy', message: 'Hay demasiadas exportaciones en curso. Inténtalo de nuevo en un momento.' });
  }, 600_000);
});
