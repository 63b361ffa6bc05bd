// The ingestion pipeline without a database (issue 27): hostile files made here are read in worker threads
// and each ends in its typed failure while the event loop keeps turning; valid files still read; the wall
// time and memory limits end a worker instead of the process.
import { afterEach, describe, expect, it } from 'vitest';
import { docxWithSections, pdfWithPages, pptxWithSlides } from '../knowledge/test-fixtures';
import { FileReadFailure } from './failure';
import { ingestionPoolDefaults, ingestionWorkersBusy } from './pool';
import { readFileChunks, readFileText, readUploadText } from './read';
import { hostileFiles, nestedXmlDocx, renamedBinary } from '../../test/hostile-files';
import { zipOf } from '../files/test-fixtures';
import { checkXml, zipDirectory } from './zip';

const DEFAULTS = { ...ingestionPoolDefaults };
const typeOf = (name: string) => name.slice(name.lastIndexOf('.') + 1);
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => (err instanceof FileReadFailure ? err.reason : err),
  );

describe('ingestion pipeline', () => {
  afterEach(() => Object.assign(ingestionPoolDefaults, DEFAULTS));

  it('ends every hostile file in its reason, off the event loop', async () => {
    const files = await hostileFiles();
    const reading = Promise.all(files.map((f) => failureOf(readFileText({ bytes: f.bytes, type: typeOf(f.name) }))));
    // The reads run in workers, not on this thread: while they run, its event loop turns (a tick comes back)
    // and the pool has workers busy. (Not a timed assertion: a loaded CI machine makes any bound flaky.)
    await new Promise((resolve) => setImmediate(resolve));
    expect(ingestionWorkersBusy()).toBeGreaterThan(0);
    const reasons = await reading;
    expect(Object.fromEntries(files.map((f, i) => [f.label, reasons[i]]))).toEqual(Object.fromEntries(files.map((f) => [f.label, f.reason])));
    expect(ingestionWorkersBusy()).toBe(0);
  }, 60_000);

  it('refuses a renamed binary and a type it does not read before any worker runs', async () => {
    expect(await failureOf(readUploadText({ upload: { fileName: 'report.pdf', bytes: renamedBinary() } }))).toBe('unsupported_type');
    expect(await failureOf(readFileText({ bytes: Buffer.from('x'), type: 'png' }))).toBe('unsupported_type');
    expect(await failureOf(readFileText({ bytes: Buffer.from('words'), type: 'txt', allowed: ['pdf'] }))).toBe('unsupported_type');
  });

  it('still reads valid documents, and chunks them with their languages', async () => {
    const docx = await docxWithSections([{ heading: 'Rivers', paragraphs: ['Salmon migrate upstream every autumn to spawn in cold gravel beds.'] }]);
    expect((await readFileText({ bytes: docx, type: 'docx' })).text).toBe('Rivers\n\nSalmon migrate upstream every autumn to spawn in cold gravel beds.');
    const pptx = await pptxWithSlides([{ title: 'Plan', body: 'Launch in spring.' }]);
    expect((await readFileText({ bytes: pptx, type: 'pptx' })).text).toContain('Launch in spring.');
    const pdf = await readFileChunks({ bytes: await pdfWithPages(['La educación pública en España es gratuita y universal para todos los niños.']), type: 'pdf', language: 'english' });
    expect(pdf).toMatchObject({ pages: 1, language: 'spanish', chunks: [{ page: 1, language: 'spanish' }] });
    expect(pdf.letters).toBeGreaterThan(50);
  }, 60_000);

  it('checks the zip directory before inflating: too many entries, declared sizes', () => {
    const many = zipOf(Array.from({ length: 20 }, (_, i) => ({ name: `p${i}.xml`, stored: Buffer.from('<a/>'), deflated: false, size: 4, crc: 0 })));
    expect(() => zipDirectory(many, { maxZipEntries: 10, maxExpandedBytes: 1000 })).toThrow(expect.objectContaining({ reason: 'too_many_entries' }));
    expect(() => zipDirectory(many, { maxZipEntries: 100, maxExpandedBytes: 40 })).toThrow(expect.objectContaining({ reason: 'too_large' }));
    expect(zipDirectory(many, { maxZipEntries: 100, maxExpandedBytes: 1000 })).toHaveLength(20);
  });

  it('checks XML depth and refuses entity declarations, but not ordinary markup', () => {
    expect(() => checkXml('<a><b x="1>2"><c/></b></a>', 3)).not.toThrow();
    expect(() => checkXml(`${'<a>'.repeat(5)}${'</a>'.repeat(5)}`, 4)).toThrow(expect.objectContaining({ reason: 'too_deep' }));
    expect(() => checkXml('<?xml version="1.0"?><!-- <!DOCTYPE x> --><a><![CDATA[<!ENTITY>]]></a>', 3)).not.toThrow();
    expect(() => checkXml('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', 3)).toThrow(expect.objectContaining({ reason: 'xml_entities' }));
  });

  it('stops a read past the time limit, and one past the memory limit, and the next read works', async () => {
    ingestionPoolDefaults.timeLimitMs = 1;
    expect(await failureOf(readFileText({ bytes: nestedXmlDocx(10), type: 'docx' }))).toBe('too_slow');
    Object.assign(ingestionPoolDefaults, DEFAULTS, { heapMb: 4 });
    // A heap far too small for the reader itself: the worker dies, the read fails, this process goes on.
    expect(await failureOf(readFileText({ bytes: await pdfWithPages(['A page of text.']), type: 'pdf' }))).toBe('too_much_memory');
    Object.assign(ingestionPoolDefaults, DEFAULTS);
    expect((await readFileText({ bytes: Buffer.from('plain words'), type: 'txt' })).text).toBe('plain words');
  }, 60_000);
});
