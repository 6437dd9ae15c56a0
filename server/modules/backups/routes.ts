import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { backupSummarySchema } from '../../../common/settings.ts';
import type { AppDeps } from '../../app-deps.ts';
import { backUpNow, listBackups } from './service.ts';

export function backupsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/backups', { config: { action: 'backups:view' }, schema: { response: { 200: z.array(backupSummarySchema) } } }, async () =>
      listBackups(deps.db),
    );
    // Back up now: runs while the request waits (the demo school takes well under a second).
    app.post('/api/backups', { config: { action: 'backups:run' }, schema: { response: { 201: backupSummarySchema } } }, async (req, reply) =>
      reply.status(201).send(await backUpNow(deps, { userId: req.user!.id, ip: req.ip, trigger: 'manual' })),
    );
  };
}
