import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UPLOAD_TYPES, type UploadType } from '../../../common/constants.ts';
import { describeImportColumns, fileUploadSchema, importColumnsResponseSchema, rowProblemSchema, uploadResultSchema, wizardSchema } from '../../../common/import-columns.ts';
import { idParam } from '../../../common/validation.ts';
import { getSettings } from '../settings/service.ts';
import type { AppDeps } from '../../app-deps.ts';
import { csvDownloadHeaders } from '../../lib/csv.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { readUploadedFile } from '../../lib/upload.ts';
import { recordRefusedUpload, runImport } from './engine.ts';
import { templateCsv } from './templates.ts';
import { getUpload, listUploads } from './upload-log.ts';
import { getWizard, resetWizard, setWizardStep } from './wizard.ts';

const typeParam = z.object({ type: z.enum(UPLOAD_TYPES, { error: `type must be one of ${UPLOAD_TYPES.join(', ')}` }) });
const flag = z
  .enum(['true', 'false', '1', '0'], { error: 'dryRun must be true or false' })
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** Imports (POST /api/upload/:type), the upload wizard, the upload log, templates and column docs. */
export function importsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    /** Read the file, import it, answer the result or every problem (400) — the refused upload recorded too. */
    const handleUpload = async (req: FastifyRequest, typeGiven: UploadType | undefined, dryRun: boolean) => {
      let file;
      try {
        file = await readUploadedFile(req, { maxFileUploadSizeMB: (await getSettings(deps.db)).system.maxFileUploadSizeMB });
      } catch (err) {
        if (typeGiven && err instanceof AppError && (err.code === 'INVALID_FILE_TYPE' || err.code === 'FILE_TOO_LARGE')) {
          await recordRefusedUpload(deps.db, { type: typeGiven, dryRun, actorId: req.user!.id, ip: req.ip, message: err.message });
        }
        throw err;
      }
      const parsedType = typeParam.shape.type.safeParse(typeGiven ?? file.fields.type);
      if (!parsedType.success) throw badRequest(`Say what the file holds: type must be one of ${UPLOAD_TYPES.join(', ')}`, [{ field: 'type', message: 'Unknown upload type' }]);
      const type = parsedType.data;
      const outcome = await runImport(deps, { type, fileName: file.fileName, buffer: file.buffer, kind: file.kind, dryRun, actorId: req.user!.id, ip: req.ip });
      if (!outcome.ok) throw new AppError(outcome.status, outcome.code, outcome.message, { ...outcome.result, errorCount: outcome.errorCount });
      return outcome.result;
    };

    app.post(
      '/api/upload/:type',
      { config: { action: 'data:manage' }, schema: { params: typeParam, querystring: z.object({ dryRun: flag }), response: { 200: uploadResultSchema } } },
      async (req) => handleUpload(req, req.params.type, req.query.dryRun),
    );
    // The generic uploader of SPEC §7: the type comes as ?type= or as a form field `type`.
    app.post(
      '/api/upload',
      { config: { action: 'data:manage' }, schema: { querystring: z.object({ dryRun: flag, type: typeParam.shape.type.optional() }), response: { 200: uploadResultSchema } } },
      async (req) => handleUpload(req, req.query.type, req.query.dryRun),
    );

    app.get('/api/upload-wizard', { config: { action: 'data:manage' }, schema: { response: { 200: wizardSchema } } }, async () => getWizard(deps.db));
    app.put(
      '/api/upload-wizard',
      { config: { action: 'data:manage' }, schema: { body: z.object({ currentStep: z.number({ error: 'currentStep must be a step number' }).int().min(1).max(5) }), response: { 200: wizardSchema } } },
      async (req) => setWizardStep(deps.db, req.body.currentStep, { actorId: req.user!.id, ip: req.ip }),
    );
    app.post('/api/upload-wizard/reset', { config: { action: 'data:manage' }, schema: { response: { 200: wizardSchema } } }, async (req) =>
      resetWizard(deps.db, { actorId: req.user!.id, ip: req.ip }),
    );

    app.get(
      '/api/file-uploads',
      { config: { action: 'data:manage' }, schema: { querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }), response: { 200: z.array(fileUploadSchema) } } },
      async (req) => listUploads(deps.db, req.query.limit),
    );
    app.get(
      '/api/file-uploads/:id',
      { config: { action: 'data:manage' }, schema: { params: idParam, response: { 200: fileUploadSchema.extend({ errors: z.array(rowProblemSchema) }) } } },
      async (req) => getUpload(deps.db, req.params.id),
    );

    app.get('/api/templates/:type', { config: { action: 'data:manage' }, schema: { params: typeParam } }, async (req, reply) => {
      const { fileName, csv } = templateCsv(req.params.type);
      return reply.headers(csvDownloadHeaders(fileName)).send(csv);
    });
    app.get('/api/import-columns', { config: { action: 'data:manage' }, schema: { response: { 200: importColumnsResponseSchema } } }, async () => describeImportColumns());
  };
}
