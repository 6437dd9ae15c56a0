import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { settingsSchema, settingsUpdateSchema } from '../../../common/settings.ts';
import type { AppDeps } from '../../app-deps.ts';
import { getSettings, updateSettings } from './service.ts';

export function settingsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/settings', { config: { action: 'settings:view' }, schema: { response: { 200: settingsSchema } } }, async () =>
      getSettings(deps.db),
    );
    // Every role may edit notifications, so the route admits all; the service checks each group.
    app.put(
      '/api/settings',
      { config: { action: 'settings:edit-notifications' }, schema: { body: settingsUpdateSchema, response: { 200: settingsSchema } } },
      async (req) => updateSettings(deps.db, req.user!, req.body, req.ip),
    );
  };
}
