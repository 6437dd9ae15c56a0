import { stringify } from 'csv-stringify/sync';
import type { UploadType } from '../../../common/constants.ts';
import { importType, templateRows } from '../../../common/import-columns.ts';

/**
 * The downloadable template: exactly the type's columns and its sample rows, generated from the
 * column definitions the importer uses. A UTF-8 byte-order mark lets spreadsheet programs open
 * accented names correctly; the importer accepts files with or without it.
 */
export function templateCsv(type: UploadType): { fileName: string; csv: string } {
  const def = importType(type);
  const { header, rows } = templateRows(def);
  return { fileName: def.templateFile, csv: '\uFEFF' + stringify([header, ...rows], { record_delimiter: '\r\n' }) };
}
