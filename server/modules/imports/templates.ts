import type { UploadType } from '../../../common/constants.ts';
import { importType, templateRows } from '../../../common/import-columns.ts';
import { csvText } from '../../lib/csv.ts';

/**
 * The downloadable template: exactly the type's columns and its sample rows, generated from the
 * column definitions the importer uses. A UTF-8 byte-order mark lets spreadsheet programs open
 * accented names correctly; the importer accepts files with or without it.
 */
export function templateCsv(type: UploadType): { fileName: string; csv: string } {
  const def = importType(type);
  const { header, rows } = templateRows(def);
  return { fileName: def.templateFile, csv: csvText([header, ...rows], { bom: true }) };
}
