import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acknowledgeAlertParamsSchema,
  acknowledgeAlertSchema,
  alertAcknowledgementSchema,
  analyticsSchema,
  executiveSummarySchema,
  gettingStartedSchema,
  realTimeSchema,
  recentAttendanceSchema,
  statsSchema,
} from '../../../common/dashboard.ts';
import type { AppDeps } from '../../app-deps.ts';
import { acknowledgeAlert, analytics, executiveSummary, gettingStarted, realTime, recentAttendance, stats, viewerContext } from './service.ts';

export function dashboardRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ctx = (req: FastifyRequest) => viewerContext(deps.db, req.user!, deps.clock.now());
  const config = { action: 'dashboard:view' as const };
  return async (app) => {
    app.get('/api/dashboard/executive-summary', { config, schema: { response: { 200: executiveSummarySchema } } }, async (req) =>
      executiveSummary(ctx(req), deps.responseTimes),
    );
    app.get('/api/dashboard/real-time', { config, schema: { response: { 200: realTimeSchema } } }, async (req) => realTime(ctx(req), deps.responseTimes));
    app.get('/api/dashboard/analytics', { config, schema: { response: { 200: analyticsSchema } } }, async (req) => analytics(ctx(req)));
    app.get('/api/dashboard/stats', { config, schema: { response: { 200: statsSchema } } }, async (req) => stats(ctx(req)));
    // The first-run checklist is for those who set the school up.
    app.get('/api/dashboard/getting-started', { config: { action: 'users:manage' }, schema: { response: { 200: gettingStartedSchema } } }, async () =>
      gettingStarted(deps.db),
    );
    // Whoever sees an alert may acknowledge it (the service checks it is one of theirs, open now).
    app.post(
      '/api/dashboard/alerts/:id/acknowledge',
      { config, schema: { params: acknowledgeAlertParamsSchema, body: acknowledgeAlertSchema, response: { 201: alertAcknowledgementSchema } } },
      async (req, reply) => reply.code(201).send(await acknowledgeAlert({ ...ctx(req), ip: req.ip }, req.params.id, req.body?.note)),
    );
    app.get('/api/dashboard/recent-attendance', { config, schema: { response: { 200: recentAttendanceSchema } } }, async (req) => recentAttendance(ctx(req)));
  };
}
