import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notificationDefaultsUpdateSchema, notificationSettingsSchema, settingsSchema, settingsUpdateSchema } from '../../../common/settings.ts';
import type { AppDeps } from '../../app-deps.ts';
import { getNotificationDefaults, getSettingsFor, updateNotificationDefaults, updateSettings } from './service.ts';

export function settingsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/settings', { config: { action: 'settings:view' }, schema: { response: { 200: settingsSchema } } }, async (req) =>
      getSettingsFor(deps.db, req.user!.id),
    );
    // Every role may edit notifications (their own, decision 013), so the route admits all; the service checks each group.
    app.put(
      '/api/settings',
      { config: { action: 'settings:edit-notifications' }, schema: { body: settingsUpdateSchema, response: { 200: settingsSchema } } },
      async (req) => updateSettings(deps.db, req.user!, req.body, req.ip, { ssoConfigured: deps.config.oidc != null }),
    );
    // The school's notification defaults: what applies to users who have not chosen their own.
    app.get(
      '/api/settings/notification-defaults',
      { config: { action: 'settings:view' }, schema: { response: { 200: notificationSettingsSchema } } },
      async () => getNotificationDefaults(deps.db),
    );
    app.put(
      '/api/settings/notification-defaults',
      {
        config: { action: 'settings:edit-notification-defaults' },
        schema: { body: notificationDefaultsUpdateSchema, response: { 200: notificationSettingsSchema } },
      },
      async (req) => updateNotificationDefaults(deps.db, req.user!, req.body, req.ip),
    );
  };
}
