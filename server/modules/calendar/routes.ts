import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { closureInputSchema, closureListQuerySchema, closureSchema } from '../../../common/calendar.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { createClosure, deleteClosure, listClosures } from './service.ts';

/** The school calendar: closures are never scheduled and never an absence (COMPLIANCE.md). */
export function calendarRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ctx = (req: FastifyRequest) => ({ actorId: req.user!.id, ip: req.ip });
  return async (app) => {
    app.get(
      '/api/calendar/closures',
      { config: { action: 'calendar:view' }, schema: { querystring: closureListQuerySchema, response: { 200: z.array(closureSchema) } } },
      async (req) => listClosures(deps.db, req.query),
    );
    app.post(
      '/api/calendar/closures',
      { config: { action: 'calendar:manage' }, schema: { body: closureInputSchema, response: { 201: closureSchema } } },
      async (req, reply) => reply.status(201).send(await createClosure(deps.db, req.body, ctx(req))),
    );
    app.delete('/api/calendar/closures/:id', { config: { action: 'calendar:manage' }, schema: { params: idParam } }, async (req, reply) => {
      await deleteClosure(deps.db, req.params.id, ctx(req));
      return reply.status(204).send();
    });
  };
}
