import {
  KNOWLEDGE_XLSX_MAX_COLUMNS as MAX_COLUMNS,
  KNOWLEDGE_XLSX_MAX_ROWS as MAX_ROWS,
} from '../../resources/index.js';
import { notParsable, overBound, reasonOf } from './refusals.js';
import type { TextBudget } from './text-budget.js';

/** exceljs, loaded on first use (only uploads need it). */
export const loadExcelJs = async () => (await import('@convo-kit/emulator/exceljs')).default;

const SHEET_BOUND = `XLSX at most ${MAX_ROWS.toLocaleString('en-US')} rows and ${MAX_COLUMNS} columns per sheet`;

/**
 * The text of an XLSX with exceljs: each sheet's name, then one line per row with its
 * cells' displayed text joined by " | ". A sheet past 5,000 rows or 100 columns is refused (413) before any
 * of its rows is read. Call checkOfficeZip first.
 */
export async function xlsxText(bytes: Buffer, budget: TextBudget): Promise<void> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's own Buffer type predates Node's generic one.
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (error) {
    throw notParsable('XLSX', reasonOf(error));
  }
  for (const sheet of workbook.worksheets) {
    if (sheet.rowCount > MAX_ROWS || sheet.columnCount > MAX_COLUMNS) {
      throw overBound(
        SHEET_BOUND,
        `The sheet ${JSON.stringify(sheet.name)} has ${sheet.rowCount} rows and ${sheet.columnCount} columns`,
      );
    }
    budget.add(sheet.name);
    sheet.eachRow((row) => {
      const cells: string[] = [];
      row.eachCell((cell) => {
        const text = cell.text.trim();
        if (text !== '') cells.push(text);
      });
      budget.add(cells.join(' | '));
    });
  }
}
