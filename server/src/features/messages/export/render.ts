// The CPU-heavy part of an export (parse + layout), run inside the export worker (export-worker.ts).
import { renderDocx } from './docx';
import { renderPdf } from './pdf';

export type ExportFormat = 'pdf' | 'docx';

export function renderExport(format: ExportFormat, markdown: string): Promise<Buffer> {
  return format === 'pdf' ? renderPdf(markdown) : renderDocx(markdown);
}
