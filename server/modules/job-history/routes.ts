import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { backgroundJobSchema } from '../../../common/notifications.ts';
import type { AppDeps } from '../../app-deps.ts';
import { listBackgroundJobs } from './service.ts';

export function jobHistoryRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/settings/jobs', { config: { action: 'operations:view' }, schema: { response: { 200: z.array(backgroundJobSchema) } } }, async () =>
      listBackgroundJobs(deps.db),
    );
  };
}
