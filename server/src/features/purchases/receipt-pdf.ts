// An invoice's receipt as a one-page PDF (GET /api/invoices/{id}/pdf): pdfkit, the library of the message
// exports, with its built-in fonts. The content is a fixed layout of short, capped fields, so it renders
// in a few milliseconds on the event loop; receipt-queue.ts bounds how many render at once.
import type { Lang } from '@pluma/common/constants';
import { translate, type MessageKey } from '@pluma/common/messages';

export interface ReceiptView {
  lang: Lang;
  businessName: string;
  businessEmail: string | null;
  invoiceNumber: number;
  orderId: string | null;
  date: Date;
  customerName: string;
  customerEmail: string;
  productName: string | null;
  /** Dollars before the discount. */
  amount: number;
  /** Dollars off (0 when none), and the code used, if any. */
  discount: number;
  discountCode: string | null;
  /** Dollars charged. */
  total: number;
  status: string;
}

const MARGIN = 56;
const FIELD_MAX = 120;
const STATUS_KEYS: Record<string, MessageKey> = {
  completed: 'receipt_status_completed',
  succeeded: 'receipt_status_succeeded',
  active: 'receipt_status_active',
  pending: 'receipt_status_pending',
  failed: 'receipt_status_failed',
  cancelled: 'receipt_status_cancelled',
};

/** The built-in fonts cover Latin-1: other characters print as '?'; control characters are dropped; fields are capped. */
export function receiptText(value: string, max = FIELD_MAX): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if ((code >= 32 && code <= 126) || (code >= 160 && code <= 255)) out += ch;
    else if (code > 255) out += '?';
    if (out.length >= max) return `${out.slice(0, max - 1)}…`;
  }
  return out;
}

export const formatDollars = (value: number) => `$${value.toFixed(2)} USD`;

export function formatReceiptDate(date: Date, lang: Lang): string {
  return new Intl.DateTimeFormat(lang === 'es' ? 'es' : 'en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date);
}

export function receiptStatusText(status: string, lang: Lang): string {
  const key = STATUS_KEYS[status];
  return key ? translate(lang, key) : receiptText(status, 40);
}

export async function renderReceiptPdf(view: ReceiptView): Promise<Buffer> {
  // pdfkit is loaded with the first receipt, not at boot (cold start: issue 31 item 4).
  const { default: PDFDocument } = await import('pdfkit');
  const t = (key: MessageKey) => translate(view.lang, key);
  const title = `${t('receipt_title')} #${view.invoiceNumber}`;
  // Uncompressed: a receipt is small, and its text stays searchable by tools that read the raw file.
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, compress: false, info: { Title: receiptText(title), Producer: receiptText(view.businessName) } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - MARGIN * 2;

  doc.font('Helvetica-Bold').fontSize(20).text(receiptText(view.businessName), { width });
  if (view.businessEmail) doc.font('Helvetica').fontSize(10).fillColor('#555555').text(receiptText(view.businessEmail), { width });
  doc.moveDown(1.2).fillColor('#000000').font('Helvetica-Bold').fontSize(15).text(receiptText(title), { width });
  doc.moveDown(0.8);

  const rows: [string, string][] = [
    [t('receipt_invoice_number'), String(view.invoiceNumber)],
    ...(view.orderId ? ([[t('receipt_order'), receiptText(view.orderId, 80)]] as [string, string][]) : []),
    [t('receipt_date'), formatReceiptDate(view.date, view.lang)],
    [t('receipt_billed_to'), receiptText(`${view.customerName} <${view.customerEmail}>`)],
    [t('receipt_status'), receiptStatusText(view.status, view.lang)],
  ];
  const labelWidth = 150;
  const row = (label: string, value: string, bold = false) => {
    const y = doc.y;
    doc.font('Helvetica').fontSize(11).fillColor('#555555').text(label, MARGIN, y, { width: labelWidth });
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fillColor('#000000').text(value, MARGIN + labelWidth, y, { width: width - labelWidth });
    doc.moveDown(0.4);
  };
  for (const [label, value] of rows) row(label, value);

  doc.moveDown(0.8);
  doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + width, doc.y).strokeColor('#cccccc').stroke();
  doc.moveDown(0.8);
  row(t('receipt_product'), receiptText(view.productName ?? t('receipt_no_product')));
  row(t('receipt_amount'), formatDollars(view.amount));
  if (view.discount > 0 || view.discountCode) {
    const code = view.discountCode ? ` (${receiptText(view.discountCode, 50)})` : '';
    row(t('receipt_discount'), `-${formatDollars(view.discount)}${code}`);
  }
  row(t('receipt_total'), formatDollars(view.total), true);

  doc.moveDown(2).font('Helvetica-Oblique').fontSize(10).fillColor('#555555').text(t('receipt_footer'), MARGIN, doc.y, { width });
  doc.end();
  return done;
}
