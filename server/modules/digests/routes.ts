import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.ts';
import { queuePreview } from './service.ts';

/** The weekly report (decision 021): the job sends it on Mondays; administrators can ask for a preview. */
export function digestsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/digests/weekly/preview',
      { config: { action: 'reports:preview' }, schema: { response: { 202: z.object({ to: z.string() }) } } },
      async (req, reply) => reply.status(202).send(await queuePreview(deps, req.user!)),
    );
  };
}
