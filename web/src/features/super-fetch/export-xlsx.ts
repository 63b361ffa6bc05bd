// Export of the results to a spreadsheet (spec part 2 §2 "Super Fetch", §9: {avatar}_{name}_{YYYY_MM_DD_HH_mm}.xlsx),
// built with exceljs (DESIGN.md §2), which is loaded only when the user exports (it is large).
import { SUPER_FETCH_INPUTS, superFetchSpreadsheetName, type SuperFetchInputKey, type SuperFetchRun } from '@pluma/common/super-fetch';
import { downloadBlob } from '../../ui/download';
import { markdownToPlainText } from './markdown-text';

export interface SheetLabels {
  sheet: string;
  date: string;
  output: string;
  content: string;
  rating: string;
  feedback: string;
  liked: string;
  disliked: string;
  inputs: Record<SuperFetchInputKey, string>;
}

/**
 * One row per output, newest run first, with the inputs it was written from; the output as clean text
 * (markdown-text.ts: no `###` or `**`, a table as tab-separated lines). Returns the file name.
 */
export async function exportResults(options: { runs: SuperFetchRun[]; avatarName: string; name: string; labels: SheetLabels; now?: Date }): Promise<string> {
  const { runs, labels } = options;
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(labels.sheet);
  sheet.columns = [
    { header: labels.date, key: 'date', width: 18 },
    { header: labels.output, key: 'output', width: 8 },
    { header: labels.content, key: 'content', width: 80 },
    { header: labels.rating, key: 'rating', width: 10 },
    ...SUPER_FETCH_INPUTS.map((key) => ({ header: labels.inputs[key], key, width: 24 })),
    { header: labels.feedback, key: 'feedback', width: 30 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const run of runs) {
    for (const output of run.outputs) {
      if (!output.content) continue;
      const row = sheet.addRow({
        date: new Date(run.createdAt),
        output: output.position,
        // Clean text: the model's markdown marks left out (issue 30 item 2).
        content: markdownToPlainText(output.content),
        rating: output.liked === true ? labels.liked : output.liked === false ? labels.disliked : '',
        ...run.inputs,
        feedback: run.feedback?.input ?? '',
      });
      row.getCell('content').alignment = { wrapText: true, vertical: 'top' };
    }
  }
  const buffer = await workbook.xlsx.writeBuffer();
  const fileName = superFetchSpreadsheetName(options.avatarName, options.name, options.now ?? new Date());
  downloadBlob(new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), fileName);
  return fileName;
}
