import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  complianceOverviewSchema,
  complianceQuerySchema,
  leaveInputSchema,
  leaveParamsSchema,
  leaveSchema,
  leaveUpdateSchema,
  monthlyHoursQuerySchema,
  sapReportQuerySchema,
  watchQuerySchema,
  watchRowSchema,
  withdrawalInputSchema,
  withdrawalReverseSchema,
  withdrawalSchema,
} from '../../../common/compliance.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { badRequest } from '../../lib/errors.ts';
import { jsonInSlices } from '../../lib/json-in-slices.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
import {
  complianceOverview,
  createLeave,
  listLeaves,
  monthlyHoursReport,
  recordWithdrawal,
  reverseWithdrawal,
  sapReportCsv,
  updateLeave,
  withdrawalWatch,
} from './service.ts';

/** Leaves, withdrawal, the withdrawal watch and the regulators' reports (decision 016). */
export function complianceRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ctx = (req: { ip: string }) => ({ clock: deps.clock, ip: req.ip });
  return async (app) => {
    app.get(
      '/api/students/:id/leaves',
      { config: { action: 'hours:view' }, schema: { params: idParam, response: { 200: z.array(leaveSchema) } } },
      async (req) => listLeaves(deps.db, req.user!, req.params.id),
    );
    app.post(
      '/api/students/:id/leaves',
      { config: { action: 'leaves:manage' }, schema: { params: idParam, body: leaveInputSchema, response: { 201: leaveSchema } } },
      async (req, reply) => reply.status(201).send(await createLeave(deps.db, req.user!, req.params.id, req.body, ctx(req))),
    );
    app.put(
      '/api/students/:id/leaves/:leaveId',
      { config: { action: 'leaves:manage' }, schema: { params: leaveParamsSchema, body: leaveUpdateSchema, response: { 200: leaveSchema } } },
      async (req) => updateLeave(deps.db, req.user!, req.params.id, req.params.leaveId, req.body, ctx(req)),
    );
    app.post(
      '/api/students/:id/withdrawal',
      { config: { action: 'withdrawals:manage' }, schema: { params: idParam, body: withdrawalInputSchema, response: { 201: withdrawalSchema } } },
      async (req, reply) => reply.status(201).send(await recordWithdrawal(deps.db, req.user!, req.params.id, req.body, ctx(req))),
    );
    // The reason travels in the JSON body (or ?reason= for clients that cannot send a DELETE body).
    app.delete(
      '/api/students/:id/withdrawal',
      {
        config: { action: 'withdrawals:manage' },
        schema: { params: idParam, querystring: withdrawalReverseSchema.partial(), body: withdrawalReverseSchema.optional() },
      },
      async (req, reply) => {
        const parsed = withdrawalReverseSchema.safeParse({ reason: req.body?.reason ?? req.query.reason });
        if (!parsed.success) throw badRequest('reason is required', [{ field: 'reason', message: 'reason is required' }]);
        await reverseWithdrawal(deps.db, req.user!, req.params.id, parsed.data.reason, ctx(req));
        return reply.status(204).send();
      },
    );
    app.get(
      '/api/compliance/withdrawal-watch',
      { config: { action: 'compliance:view', heavy: true }, schema: { querystring: watchQuerySchema, response: { 200: z.array(watchRowSchema) } } },
      // Written in slices (json-in-slices.ts): 10,000 students' lists are megabytes of JSON. The route's
      // schema still documents the body; the stream checks it element by element (hence the cast).
      async (req, reply) => reply.type(JSON_TYPE).send(jsonInSlices(await withdrawalWatch(deps.db, req.query, deps.clock), z.array(watchRowSchema)) as never),
    );
    app.get(
      '/api/compliance/overview',
      { config: { action: 'compliance:view', heavy: true }, schema: { querystring: complianceQuerySchema, response: { 200: complianceOverviewSchema } } },
      async (req, reply) =>
        reply.type(JSON_TYPE).send(jsonInSlices(await complianceOverview(deps.db, req.query, deps.clock), complianceOverviewSchema) as never),
    );
    app.get(
      '/api/reports/monthly-hours',
      { config: { action: 'compliance:view', heavy: true }, schema: { querystring: monthlyHoursQuerySchema } },
      async (req, reply) => {
        const { headers, body } = await monthlyHoursReport(deps.db, req.query, { ...ctx(req), actorId: req.user!.id });
        if ('on' in body) body.on('error', (err) => req.log.error({ err }, 'monthly hours report failed mid-stream'));
        return reply.headers(headers).send(body);
      },
    );
    app.get('/api/reports/sap', { config: { action: 'compliance:view', heavy: true }, schema: { querystring: sapReportQuerySchema } }, async (req, reply) => {
      const { headers, stream } = await sapReportCsv(deps.db, req.query, { ...ctx(req), actorId: req.user!.id });
      stream.on('error', (err) => req.log.error({ err }, 'SAP report failed mid-stream'));
      return reply.headers(headers).send(stream);
    });
  };
}
