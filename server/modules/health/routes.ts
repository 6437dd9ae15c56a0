import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.ts';
import { migrationsCurrent } from '../../db/migrate.ts';

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
  const pingDatabase = async (): Promise<number | null> => {
    const started = performance.now();
    try {
      await deps.db.execute(sql`select 1`);
      return Math.round((performance.now() - started) * 100) / 100;
    } catch {
      return null;
    }
  };

  return async (app) => {
    // Liveness: the process answers. It reports the database but never fails because of it, so a
    // load balancer or supervisor does not restart a healthy process during a database outage.
    app.get('/api/health', { config: { public: true }, schema: { response: { 200: healthSchema } } }, async () => {
      const latencyMs = await pingDatabase();
      const status = latencyMs === null ? ('error' as const) : ('healthy' as const);
      return { status, database: { status, latencyMs }, uptimeSeconds: Math.round(process.uptime()) };
    });

    // Readiness: send traffic here only when the database answers and its schema is this version's.
    app.get('/api/ready', { config: { public: true }, schema: { response: { 200: readySchema, 503: readySchema } } }, async (_req, reply) => {
      const reachable = (await pingDatabase()) !== null;
      let migrations: 'current' | 'pending' | 'unknown' = 'unknown';
      if (reachable) migrations = await migrationsCurrent(deps.db).then((current) => (current ? 'current' : 'pending'), () => 'unknown' as const);
      const ready = reachable && migrations === 'current';
      return reply.status(ready ? 200 : 503).send({ ready, database: reachable ? 'reachable' : 'unreachable', migrations });
    });
  };
}
