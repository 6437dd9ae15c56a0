import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditEntrySchema, auditQuerySchema, auditSummarySchema } from '../../../common/audit-logs.ts';
import { TOTAL_COUNT_HEADER } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { csvDownloadHeaders, csvStream } from '../../lib/csv.ts';
import { getSettings } from '../settings/service.ts';
import { auditEntriesInBatches, auditSummary, listAuditEntries } from './queries.ts';
import { recordAudit } from './service.ts';

export function auditLogsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const timeZone = async () => (await getSettings(deps.db)).attendance.timeZone;
  return async (app) => {
    // An array (SPEC), filtered and paged on the server; X-Total-Count carries the filtered total.
    app.get('/api/audit-logs', { config: { action: 'audit:view' }, schema: { querystring: auditQuerySchema, response: { 200: z.array(auditEntrySchema) } } }, async (req, reply) => {
      const { items, total } = await listAuditEntries(deps.db, req.query, await timeZone());
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return items;
    });
    app.get('/api/audit-logs/summary', { config: { action: 'audit:view' }, schema: { querystring: auditQuerySchema, response: { 200: auditSummarySchema } } }, async (req) =>
      auditSummary(deps.db, req.query, await timeZone(), deps.clock.now()),
    );
    app.get('/api/audit-logs/export', { config: { action: 'audit:view' }, schema: { querystring: auditQuerySchema } }, async (req, reply) => {
      const tz = await timeZone();
      await recordAudit(deps.db, { userId: req.user!.id, action: 'Export', tableName: 'audit_logs', ipAddress: req.ip, newValues: { filters: req.query }, always: true });
      const csv = csvStream(['id', 'timestamp', 'userId', 'user', 'action', 'tableName', 'recordId', 'ipAddress', 'oldValues', 'newValues']);
      void (async () => {
        try {
          for await (const batch of auditEntriesInBatches(deps.db, req.query, tz)) {
            for (const e of batch) {
              const ok = csv.write({ ...e, user: e.userName ?? (e.userId == null ? 'System' : ''), oldValues: e.oldValues == null ? '' : JSON.stringify(e.oldValues), newValues: e.newValues == null ? '' : JSON.stringify(e.newValues) });
              if (!ok) await new Promise((r) => csv.once('drain', r));
            }
          }
          csv.end();
        } catch (err) {
          csv.destroy(err as Error);
        }
      })();
      return reply.headers(csvDownloadHeaders(`audit-logs-${deps.clock.now().toISOString().slice(0, 10)}.csv`)).send(csv);
    });
  };
}
