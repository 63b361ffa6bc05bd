// Real small documents for the knowledge tests, made with the libraries people make them with: PDFKit,
// docx and PptxGenJS. A "scanned" PDF is an image with no text layer.
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import PDFDocument from 'pdfkit';
import PptxGenJS from 'pptxgenjs';

/** A 1×1 PNG: the scanned page's picture. */
export const pngBytes = () => Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==', 'base64');

/** A PDF with one text per page. */
export function pdfWithPages(pages: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false, info: { CreationDate: new Date(0) } });
    const parts: Buffer[] = [];
    doc.on('data', (part: Buffer) => parts.push(part));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    for (const text of pages) {
      doc.addPage();
      doc.fontSize(12).text(text);
    }
    doc.end();
  });
}

/** A page holding only a picture: what a scanner without OCR produces. */
export function scannedPdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ info: { CreationDate: new Date(0) } });
    const parts: Buffer[] = [];
    doc.on('data', (part: Buffer) => parts.push(part));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    doc.image(pngBytes(), 50, 50, { width: 400 });
    doc.end();
  });
}

/** A Word document: sections of a Heading 1 followed by paragraphs. */
export function docxWithSections(sections: { heading: string; paragraphs: string[] }[]): Promise<Buffer> {
  const children = sections.flatMap((s) => [new Paragraph({ text: s.heading, heading: HeadingLevel.HEADING_1 }), ...s.paragraphs.map((p) => new Paragraph({ text: p }))]);
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/** A presentation: one slide per entry, its title in the title placeholder and its body below. */
export async function pptxWithSlides(slides: { title: string; body: string }[]): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.defineSlideMaster({
    title: 'TITLED',
    objects: [{ placeholder: { options: { name: 'title', type: 'title', x: 0.5, y: 0.3, w: 9, h: 1 }, text: '' } }],
  });
  for (const s of slides) {
    const slide = pptx.addSlide({ masterName: 'TITLED' });
    slide.addText(s.title, { placeholder: 'title' });
    slide.addText(s.body, { x: 0.5, y: 1.5, w: 9, h: 3 });
  }
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}

/** Sentences about one subject, to fill passages of realistic length. */
export function prose(subject: string, sentences: number): string {
  return Array.from({ length: sentences }, (_, i) => `Sentence ${i + 1} tells more about ${subject} and why it matters to readers.`).join(' ');
}
