import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can } from '../../../common/permissions.ts';
import { systemStatusSchema } from '../../../common/settings.ts';
import type { AppDeps } from '../../app-deps.ts';
import { checkHealth, checkReadiness, systemStatus } from './service.ts';

const healthSchema = z.object({
  status: z.enum(['healthy', 'error']),
  database: z.object({ status: z.enum(['healthy', 'error']), latencyMs: z.number().nullable() }),
  uptimeSeconds: z.number(),
});

const readySchema = z.object({
  ready: z.boolean(),
  database: z.enum(['reachable', 'unreachable']),
  migrations: z.enum(['current', 'pending', 'unknown']),
});

export function healthRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Liveness: the process answers. It reports the database but never fails because of it, so a
    // load balancer or supervisor does not restart a healthy process during a database outage.
    app.get('/api/health', { config: { public: true }, schema: { response: { 200: healthSchema } } }, async () => checkHealth(deps.db));

    // Readiness: send traffic here only when the database answers and its schema is this version's.
    app.get('/api/ready', { config: { public: true }, schema: { response: { 200: readySchema, 503: readySchema } } }, async (_req, reply) => {
      const readiness = await checkReadiness(deps.db);
      return reply.status(readiness.ready ? 200 : 503).send(readiness);
    });

    // Settings › System: what the database, backups and retention job really look like.
    // Every role opens the tab; the backup's host and path go only to roles with backups:view.
    app.get('/api/settings/system-status', { config: { action: 'settings:view' }, schema: { response: { 200: systemStatusSchema } } }, async (req) =>
      systemStatus(deps.db, deps.config, { showBackupLocation: can(req.user!.role, 'backups:view') }),
    );
  };
}
