import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditEntrySchema, auditQuerySchema, auditSummarySchema } from '../../../common/audit-logs.ts';
import { TOTAL_COUNT_HEADER } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { csvDownloadHeaders } from '../../lib/csv.ts';
import { exportAuditLog, listAuditEntries, summariseAuditLog } from './service.ts';

export function auditLogsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // An array (SPEC), filtered and paged on the server; X-Total-Count carries the filtered total.
    app.get(
      '/api/audit-logs',
      { config: { action: 'audit:view' }, schema: { querystring: auditQuerySchema, response: { 200: z.array(auditEntrySchema) } } },
      async (req, reply) => {
        const { items, total } = await listAuditEntries(deps.db, req.query);
        reply.header(TOTAL_COUNT_HEADER, String(total));
        return items;
      },
    );

    app.get(
      '/api/audit-logs/summary',
      { config: { action: 'audit:view' }, schema: { querystring: auditQuerySchema, response: { 200: auditSummarySchema } } },
      async (req) => summariseAuditLog(deps.db, req.query, deps.clock.now()),
    );

    app.get('/api/audit-logs/export', { config: { action: 'audit:view' }, schema: { querystring: auditQuerySchema } }, async (req, reply) => {
      const { fileName, csv } = await exportAuditLog(deps.db, req.query, { userId: req.user!.id, ip: req.ip, clock: deps.clock });
      return reply.headers(csvDownloadHeaders(fileName)).send(csv);
    });
  };
}
