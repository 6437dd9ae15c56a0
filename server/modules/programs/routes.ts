import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { programPolicyInputSchema, programPolicySchema } from '../../../common/hours.ts';
import { programInputSchema, programSavedSchema, programSchema } from '../../../common/programs.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { createProgram, getProgram, getProgramPolicy, listPrograms, setProgramPolicy, updateProgram } from './service.ts';

export function programsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/programs', { config: { action: 'programs:view' }, schema: { response: { 200: z.array(programSchema) } } }, async () => listPrograms(deps.db));
    app.get('/api/programs/:id', { config: { action: 'programs:view' }, schema: { params: idParam, response: { 200: programSchema } } }, async (req) => getProgram(deps.db, req.params.id));
    app.post('/api/programs', { config: { action: 'programs:manage' }, schema: { body: programInputSchema, response: { 201: programSavedSchema } } }, async (req, reply) =>
      reply.status(201).send(await createProgram(deps.db, req.body, { actorId: req.user!.id, ip: req.ip })),
    );
    app.put('/api/programs/:id', { config: { action: 'programs:manage' }, schema: { params: idParam, body: programInputSchema, response: { 200: programSavedSchema } } }, async (req) =>
      updateProgram(deps.db, req.params.id, req.body, { actorId: req.user!.id, ip: req.ip }),
    );

    // The clock-hour policy (COMPLIANCE.md): everyone who sees the program reads it, administrators set it.
    app.get('/api/programs/:id/policy', { config: { action: 'programs:view' }, schema: { params: idParam, response: { 200: programPolicySchema } } }, async (req) =>
      getProgramPolicy(deps.db, req.params.id),
    );
    app.put(
      '/api/programs/:id/policy',
      { config: { action: 'programs:manage' }, schema: { params: idParam, body: programPolicyInputSchema, response: { 200: programPolicySchema } } },
      async (req) => setProgramPolicy(deps.db, req.params.id, req.body, { actorId: req.user!.id, ip: req.ip }),
    );
  };
}
