import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { timeZoneImpactQuerySchema, timeZoneImpactSchema } from '../../../common/settings.ts';
import type { AppDeps } from '../../app-deps.ts';
import { timeZoneImpact } from './service.ts';

/** Settings › Attendance asks this before saving a new school time zone; those who may save it may ask. */
export function timeZoneChangeRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/settings/time-zone-impact',
      {
        config: { action: 'settings:edit-attendance', heavy: true },
        schema: { querystring: timeZoneImpactQuerySchema, response: { 200: timeZoneImpactSchema } },
      },
      async (req) => timeZoneImpact(deps.db, req.query.timeZone, deps.clock),
    );
  };
}
