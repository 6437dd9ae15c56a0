import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../db/client.ts';
import { getSettings } from '../modules/settings/service.ts';
import { AppError, badRequest } from './errors.ts';
import { INVALID_CSV_TYPE, INVALID_FILE_TYPE, fileKind, fileTooLarge } from './tabular-file.ts';

export type UploadedFile = { fileName: string; buffer: Buffer; kind: 'csv' | 'xlsx' | 'xls'; fields: Record<string, string> };

/**
 * Read the multipart `file` field, enforcing type and the maxFileUploadSizeMB setting (at most
 * SPEC's 10 MB). The stream is cut at the limit, so a huge upload never sits in memory.
 */
export async function readUploadedFile(req: FastifyRequest, db: DbOrTx, opts: { csvOnly?: boolean } = {}): Promise<UploadedFile> {
  const { system } = await getSettings(db);
  const limitBytes = system.maxFileUploadSizeMB * 1024 * 1024;
  if (!req.isMultipart()) throw badRequest('Send the file as multipart/form-data in the field "file"');
  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  for await (const part of req.parts({ limits: { fileSize: limitBytes, files: 1 } })) {
    if (part.type === 'field') {
      fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== 'file') {
      part.file.resume();
      continue;
    }
    const kind = fileKind(part.filename);
    if (!kind || (opts.csvOnly && kind !== 'csv')) {
      part.file.resume();
      throw new AppError(400, 'INVALID_FILE_TYPE', opts.csvOnly ? INVALID_CSV_TYPE : INVALID_FILE_TYPE);
    }
    const buffer = await part.toBuffer().catch((err: { code?: string }) => {
      if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'FILE_TOO_LARGE', fileTooLarge(system.maxFileUploadSizeMB));
      throw err;
    });
    if (part.file.truncated) throw new AppError(413, 'FILE_TOO_LARGE', fileTooLarge(system.maxFileUploadSizeMB));
    file = { fileName: part.filename, buffer, kind, fields };
  }
  if (!file) throw badRequest('No file was sent: use the form field "file"');
  return file;
}
