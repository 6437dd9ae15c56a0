import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.ts';

const healthSchema = z.object({
  status: z.enum(['healthy', 'error']),
  database: z.object({ status: z.enum(['healthy', 'error']), latencyMs: z.number().nullable() }),
  uptimeSeconds: z.number(),
});

export function healthRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/health', { config: { public: true }, schema: { response: { 200: healthSchema, 503: healthSchema } } }, async (_req, reply) => {
      const started = performance.now();
      let ok = true;
      try {
        await deps.db.execute(sql`select 1`);
      } catch {
        ok = false;
      }
      const body = {
        status: ok ? ('healthy' as const) : ('error' as const),
        database: { status: ok ? ('healthy' as const) : ('error' as const), latencyMs: ok ? Math.round((performance.now() - started) * 100) / 100 : null },
        uptimeSeconds: Math.round(process.uptime()),
      };
      return reply.status(ok ? 200 : 503).send(body);
    });
  };
}
