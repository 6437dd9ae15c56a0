import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TEST_EMAIL_QUEUED, deliveryStatusSchema } from '../../../common/notifications.ts';
import type { AppDeps } from '../../app-deps.ts';
import { deliveryStatus, queueTestEmail } from './service.ts';

export function outboxRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/settings/delivery', { config: { action: 'operations:view' }, schema: { response: { 200: deliveryStatusSchema } } }, async () =>
      deliveryStatus(deps.db, deps.config),
    );
    app.post(
      '/api/settings/delivery/test-email',
      {
        config: { action: 'operations:test-email', rateLimit: { max: 5, timeWindow: '1 minute' } },
        schema: { response: { 202: z.object({ message: z.string() }) } },
      },
      async (req, reply) => {
        await queueTestEmail(deps.db, deps.config, req.user!, deps.clock);
        return reply.status(202).send({ message: TEST_EMAIL_QUEUED });
      },
    );
  };
}
