import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { isStorableText } from '../../common/validation.ts';
import { AppError, badRequest } from './errors.ts';
import { INVALID_CSV_TYPE, INVALID_FILE_TYPE, fileKind, fileTooLarge } from './tabular-file.ts';

export type UploadedFile = { fileName: string; buffer: Buffer; kind: 'csv' | 'xlsx' | 'xls'; fields: Record<string, string> };

const MALFORMED_MULTIPART = 'The upload could not be read: send the file as multipart/form-data in the field "file"';
const MAX_FILE_NAME = 255;

/**
 * Read the multipart `file` field, enforcing type and the maxFileUploadSizeMB setting (at most
 * SPEC's 10 MB). The stream is cut at the limit, so a huge upload never sits in memory. A body that
 * is not well-formed multipart (no boundary, cut short, broken part headers) is a 400, never a 500.
 */
export async function readUploadedFile(req: FastifyRequest, opts: { maxFileUploadSizeMB: number; csvOnly?: boolean }): Promise<UploadedFile> {
  const limitBytes = opts.maxFileUploadSizeMB * 1024 * 1024;
  if (!req.isMultipart()) throw badRequest('Send the file as multipart/form-data in the field "file"');
  const tooLarge = () => new AppError(413, 'FILE_TOO_LARGE', fileTooLarge(opts.maxFileUploadSizeMB));
  // No prototype: a form field named `constructor` or `toString` is only ever a field.
  const fields: Record<string, string> = Object.create(null);
  let file: UploadedFile | null = null;
  // Watched from after the parser is piped the body, so the watch never sets it flowing first.
  const parts = req.parts({ limits: { fileSize: limitBytes, files: 1 } })[Symbol.asyncIterator]();
  const stalled = stallGuard(req);
  try {
    for (let next = await stalled.race(parts.next()); !next.done; next = await stalled.race(parts.next())) {
      const part = next.value;
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      const fileName = part.filename ?? '';
      if (!isStorableText(fileName) || fileName.length > MAX_FILE_NAME || /\p{Cc}/u.test(fileName)) {
        part.file.resume();
        throw badRequest('The file name is not valid: use a short name without control characters', [{ field: 'file', message: 'Invalid file name' }]);
      }
      const kind = fileKind(fileName);
      if (!kind || (opts.csvOnly && kind !== 'csv')) {
        part.file.resume();
        throw new AppError(400, 'INVALID_FILE_TYPE', opts.csvOnly ? INVALID_CSV_TYPE : INVALID_FILE_TYPE);
      }
      const buffer = await part.toBuffer().catch((err: { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw err;
      });
      if (part.file.truncated) throw tooLarge();
      file = { fileName, buffer, kind, fields };
    }
  } catch (err) {
    // The parser stops reading at a broken part: read the rest of the body away, so that the 400 is
    // answered on a request that has ended (otherwise the server closes the connection instead).
    req.raw.resume();
    throw asUploadError(err, tooLarge);
  }
  if (!file) throw badRequest('No file was sent: use the form field "file"', [{ field: 'file', message: 'Required' }]);
  return file;
}

/** A body that stops arriving (or a parser that stops reading it) for this long is refused. */
const UPLOAD_STALL_MS = 5_000;

/**
 * Races the multipart reads against a body that makes no progress. The parser waits forever on a
 * part whose header it cannot read once the part outgrows its buffer (a broken part header in
 * front of a large file): without this, such a request would hold its connection until the client
 * gave up. No data for UPLOAD_STALL_MS is a malformed body; the request stream is destroyed.
 */
function stallGuard(req: FastifyRequest): { race: <T>(p: Promise<T>) => Promise<T>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let fail: (err: Error) => void = () => {};
  const stalled = new Promise<never>((_, reject) => (fail = reject));
  stalled.catch(() => {});
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      req.raw.destroy();
      fail(new Error('the body stopped arriving'));
    }, UPLOAD_STALL_MS);
  };
  req.raw.on('data', arm);
  arm();
  return {
    race: (p) => Promise.race([p, stalled]),
    stop: () => {
      clearTimeout(timer);
      req.raw.off('data', arm);
    },
  };
}

/**
 * What a failed multipart read means to the sender. Our own refusals pass through; the parser's
 * limits are 413s; anything else the parser throws (busboy: "Unexpected end of form", "Malformed
 * part header", "Boundary not found"…) is a malformed body, which is the sender's to fix.
 */
function asUploadError(err: unknown, tooLarge: () => AppError): AppError {
  if (err instanceof AppError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (e.code === 'FST_FILES_LIMIT') return new AppError(413, 'TOO_MANY_FILES', 'Send one file at a time in the field "file"');
  if (e.code === 'FST_FIELDS_LIMIT' || e.code === 'FST_PARTS_LIMIT')
    return new AppError(413, 'TOO_MANY_PARTS', 'The form has too many fields: send only "file" (and "type")');
  if (e.code === 'FST_PROTO_VIOLATION') return badRequest('A form field name is not allowed', [{ field: 'file', message: 'Invalid field name' }]);
  return badRequest(`${MALFORMED_MULTIPART} (${String(e.message ?? 'malformed body').slice(0, 100)})`, [
    { field: 'file', message: 'Malformed multipart/form-data body' },
  ]);
}
