import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { programInputSchema, programSchema } from '../../../common/programs.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { createProgram, listPrograms, updateProgram } from './service.ts';

export function programsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/programs', { config: { action: 'programs:view' }, schema: { response: { 200: z.array(programSchema) } } }, async () => listPrograms(deps.db));
    app.post('/api/programs', { config: { action: 'programs:manage' }, schema: { body: programInputSchema, response: { 201: programSchema } } }, async (req, reply) =>
      reply.status(201).send(await createProgram(deps.db, req.body, { actorId: req.user!.id, ip: req.ip })),
    );
    app.put('/api/programs/:id', { config: { action: 'programs:manage' }, schema: { params: idParam, body: programInputSchema, response: { 200: programSchema } } }, async (req) =>
      updateProgram(deps.db, req.params.id, req.body, { actorId: req.user!.id, ip: req.ip }),
    );
  };
}
