import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sisStatusSchema } from '../../../common/import-columns.ts';
import type { AppDeps } from '../../app-deps.ts';
import { sisStatus } from './service.ts';

export function sisRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/sis/status', { config: { action: 'data:manage' }, schema: { response: { 200: sisStatusSchema } } }, async () => sisStatus(deps.db));
  };
}
