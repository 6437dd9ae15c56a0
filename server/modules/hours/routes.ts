import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  attendanceHistorySchema,
  hoursExportQuerySchema,
  hoursListQuerySchema,
  hoursSummaryRowSchema,
  recomputingHoursSchema,
  studentHoursQuerySchema,
  studentHoursSchema,
  studentRecordSchema,
  studentRecordsQuerySchema,
  timeCardQuerySchema,
} from '../../../common/hours.ts';
import { makeUpDeleteSchema, makeUpInputSchema, makeUpParamsSchema, makeUpSessionSchema } from '../../../common/make-ups.ts';
import { openingBalanceInputSchema, openingBalanceSchema } from '../../../common/opening-balances.ts';
import { TOTAL_COUNT_HEADER, idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { badRequest } from '../../lib/errors.ts';
import { readTabular } from '../../lib/tabular-file.ts';
import { readUploadedFile } from '../../lib/upload.ts';
import {
  attendanceHistory,
  deleteMakeUp,
  deleteOpeningBalance,
  exportHours,
  getOpeningBalance,
  importOpeningBalances,
  hoursSummary,
  listMakeUps,
  recomputingHours,
  recordMakeUp,
  setOpeningBalance,
  studentHours,
  studentRecords,
  studentTimeCard,
  uploadLimitMB,
} from './service.ts';

/** The clock-hour ledger (decision 014): per student, per program, the CSV, make-up sessions. */
export function hoursRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/students/:id/hours',
      {
        config: { action: 'hours:view', heavy: true },
        schema: { params: idParam, querystring: studentHoursQuerySchema, response: { 200: studentHoursSchema } },
      },
      async (req) => studentHours(deps.db, req.user!, req.params.id, req.query, deps.clock),
    );
    app.get(
      '/api/hours',
      { config: { action: 'hours:view', heavy: true }, schema: { querystring: hoursListQuerySchema, response: { 200: z.array(hoursSummaryRowSchema) } } },
      async (req, reply) => {
        const { items, total } = await hoursSummary(deps.db, req.user!, req.query, deps.clock);
        reply.header(TOTAL_COUNT_HEADER, String(total));
        return items;
      },
    );
    // How many students' hours are being recomputed after a policy change (screens say so until 0).
    app.get('/api/hours/recomputing', { config: { action: 'hours:view' }, schema: { response: { 200: recomputingHoursSchema } } }, async () =>
      recomputingHours(deps.db),
    );
    app.get('/api/export/hours', { config: { action: 'hours:export', heavy: true }, schema: { querystring: hoursExportQuerySchema } }, async (req, reply) => {
      const { headers, stream } = await exportHours(deps.db, req.query, { actorId: req.user!.id, ip: req.ip, clock: deps.clock });
      stream.on('error', (err) => req.log.error({ err }, 'hours export failed mid-stream'));
      return reply.headers(headers).send(stream);
    });
    // A student's hours from before the school kept attendance in Muster (decision 041).
    app.get(
      '/api/students/:id/opening-balance',
      { config: { action: 'hours:view' }, schema: { params: idParam, response: { 200: openingBalanceSchema } } },
      async (req) => getOpeningBalance(deps.db, req.user!, req.params.id),
    );
    app.put(
      '/api/students/:id/opening-balance',
      { config: { action: 'opening-balances:manage' }, schema: { params: idParam, body: openingBalanceInputSchema, response: { 200: openingBalanceSchema } } },
      async (req) => setOpeningBalance(deps.db, req.user!, req.params.id, req.body, { clock: deps.clock, ip: req.ip }),
    );
    // Many at once from a file (columns: OPENING_BALANCE_COLUMNS); ?dryRun=true checks and counts only.
    app.post(
      '/api/students/opening-balances/import',
      {
        config: { action: 'opening-balances:manage' },
        schema: { querystring: z.object({ dryRun: z.enum(['true', 'false'], { error: 'dryRun must be true or false' }).optional() }) },
      },
      async (req) => {
        const file = await readUploadedFile(req, { maxFileUploadSizeMB: await uploadLimitMB(deps.db) });
        return importOpeningBalances(deps.db, req.user!, readTabular(file.buffer, file.kind), req.query.dryRun === 'true', { clock: deps.clock, ip: req.ip });
      },
    );
    app.delete(
      '/api/students/:id/opening-balance',
      {
        config: { action: 'opening-balances:manage' },
        schema: { params: idParam, querystring: makeUpDeleteSchema.partial(), body: makeUpDeleteSchema.optional() },
      },
      async (req, reply) => {
        const reason = req.body?.reason ?? req.query.reason;
        if (!reason) throw badRequest('reason is required', [{ field: 'reason', message: 'reason is required' }]);
        await deleteOpeningBalance(deps.db, req.user!, req.params.id, reason, { clock: deps.clock, ip: req.ip });
        return reply.status(204).send();
      },
    );
    app.get(
      '/api/students/:id/records',
      {
        config: { action: 'hours:view' },
        schema: { params: idParam, querystring: studentRecordsQuerySchema, response: { 200: z.array(studentRecordSchema) } },
      },
      async (req) => studentRecords(deps.db, req.user!, req.params.id, req.query),
    );
    app.get(
      '/api/students/:id/time-card.pdf',
      { config: { action: 'hours:view', heavy: true }, schema: { params: idParam, querystring: timeCardQuerySchema } },
      async (req, reply) => {
        const { headers, body } = await studentTimeCard(deps.db, req.user!, req.params.id, req.query, { clock: deps.clock, ip: req.ip });
        return reply.headers(headers).send(body);
      },
    );
    app.get(
      '/api/attendance/:id/history',
      { config: { action: 'hours:view' }, schema: { params: idParam, response: { 200: attendanceHistorySchema } } },
      async (req) => attendanceHistory(deps.db, req.user!, req.params.id),
    );
    app.get(
      '/api/students/:id/make-up-sessions',
      { config: { action: 'hours:view' }, schema: { params: idParam, response: { 200: z.array(makeUpSessionSchema) } } },
      async (req) => listMakeUps(deps.db, req.user!, req.params.id),
    );
    app.post(
      '/api/students/:id/make-up-sessions',
      { config: { action: 'make-up:record' }, schema: { params: idParam, body: makeUpInputSchema, response: { 201: makeUpSessionSchema } } },
      async (req, reply) => reply.status(201).send(await recordMakeUp(deps.db, req.user!, req.params.id, req.body, { clock: deps.clock, ip: req.ip })),
    );
    // The reason travels in the JSON body (or ?reason= for clients that cannot send a DELETE body).
    app.delete(
      '/api/students/:id/make-up-sessions/:sessionId',
      {
        config: { action: 'make-up:record' },
        schema: { params: makeUpParamsSchema, querystring: makeUpDeleteSchema.partial(), body: makeUpDeleteSchema.optional() },
      },
      async (req, reply) => {
        const parsed = makeUpDeleteSchema.safeParse({ reason: req.body?.reason ?? req.query.reason });
        if (!parsed.success) throw badRequest('reason is required', [{ field: 'reason', message: 'reason is required' }]);
        await deleteMakeUp(deps.db, req.user!, req.params.id, req.params.sessionId, parsed.data.reason, { clock: deps.clock, ip: req.ip });
        return reply.status(204).send();
      },
    );
  };
}
