import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UPLOAD_TYPES, type UploadType } from '../../../common/constants.ts';
import { fileUploadSchema, importColumnsResponseSchema, rowProblemSchema, uploadResultSchema } from '../../../common/uploads.ts';
import { wizardSchema } from '../../../common/upload-wizard.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { csvDownloadHeaders } from '../../lib/csv.ts';
import { readUploadedFile } from '../../lib/upload.ts';
import {
  describeImportColumns,
  getUpload,
  getWizard,
  importUpload,
  listUploads,
  refuseUpload,
  resetWizard,
  setWizardStep,
  templateCsv,
  uploadLimitMB,
} from './service.ts';

const typeParam = z.object({ type: z.enum(UPLOAD_TYPES, { error: `type must be one of ${UPLOAD_TYPES.join(', ')}` }) });
const flag = z
  .enum(['true', 'false', '1', '0'], { error: 'dryRun must be true or false' })
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** Imports (POST /api/upload/:type), the upload wizard, the upload log, templates and column docs. */
export function importsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    /** Read the file, import it, answer the result or every problem (400) — the refused upload recorded too. */
    const handleUpload = async (req: FastifyRequest, type: UploadType | undefined, dryRun: boolean) => {
      const actor = { actorId: req.user!.id, ip: req.ip };
      const file = await readUploadedFile(req, { maxFileUploadSizeMB: await uploadLimitMB(deps.db) }).catch((err: unknown) =>
        refuseUpload(deps.db, err, { ...actor, type, dryRun }),
      );
      return importUpload(deps, file, { ...actor, type, dryRun });
    };

    app.post(
      '/api/upload/:type',
      { config: { action: 'data:manage' }, schema: { params: typeParam, querystring: z.object({ dryRun: flag }), response: { 200: uploadResultSchema } } },
      async (req) => handleUpload(req, req.params.type, req.query.dryRun),
    );
    // The generic uploader of SPEC §7: the type comes as ?type= or as a form field `type`.
    app.post(
      '/api/upload',
      {
        config: { action: 'data:manage' },
        schema: { querystring: z.object({ dryRun: flag, type: typeParam.shape.type.optional() }), response: { 200: uploadResultSchema } },
      },
      async (req) => handleUpload(req, req.query.type, req.query.dryRun),
    );

    app.get('/api/upload-wizard', { config: { action: 'data:manage' }, schema: { response: { 200: wizardSchema } } }, async () => getWizard(deps.db));
    app.put(
      '/api/upload-wizard',
      {
        config: { action: 'data:manage' },
        schema: {
          body: z.object({ currentStep: z.number({ error: 'currentStep must be a step number' }).int().min(1).max(5) }),
          response: { 200: wizardSchema },
        },
      },
      async (req) => setWizardStep(deps.db, req.body.currentStep, { actorId: req.user!.id, ip: req.ip }),
    );
    app.post('/api/upload-wizard/reset', { config: { action: 'data:manage' }, schema: { response: { 200: wizardSchema } } }, async (req) =>
      resetWizard(deps.db, { actorId: req.user!.id, ip: req.ip }),
    );

    app.get(
      '/api/file-uploads',
      {
        config: { action: 'data:manage' },
        schema: { querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }), response: { 200: z.array(fileUploadSchema) } },
      },
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
    app.get('/api/import-columns', { config: { action: 'data:manage' }, schema: { response: { 200: importColumnsResponseSchema } } }, async () =>
      describeImportColumns(),
    );
  };
}
