import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { maintenanceNoticeInputSchema, maintenanceNoticeSchema } from '../../../common/maintenance.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { currentNotices, listNotices, postNotice, removeNotice } from './service.ts';

export function maintenanceRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/maintenance-notices/current', { config: { signedIn: true }, schema: { response: { 200: z.array(maintenanceNoticeSchema) } } }, async () =>
      currentNotices(deps.db, deps.clock),
    );
    app.get(
      '/api/maintenance-notices',
      { config: { action: 'maintenance:manage' }, schema: { response: { 200: z.array(maintenanceNoticeSchema) } } },
      async () => listNotices(deps.db),
    );
    app.post(
      '/api/maintenance-notices',
      { config: { action: 'maintenance:manage' }, schema: { body: maintenanceNoticeInputSchema, response: { 201: maintenanceNoticeSchema } } },
      async (req, reply) => reply.status(201).send(await postNotice(deps.db, deps, req.user!, req.body, req.ip)),
    );
    app.delete('/api/maintenance-notices/:id', { config: { action: 'maintenance:manage' }, schema: { params: idParam } }, async (req, reply) => {
      await removeNotice(deps.db, req.user!, req.params.id, req.ip, deps.clock);
      return reply.status(204).send();
    });
  };
}
