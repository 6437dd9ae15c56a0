import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { programPolicyInputSchema, programPolicySchema } from '../../../common/program-policy.ts';
import { programInputSchema, programSavedSchema, programSchema } from '../../../common/programs.ts';
import {
  timeClockImpactQuerySchema,
  timeClockImpactSchema,
  timeClockInputSchema,
  timeClockPolicySchema,
  timeClockPresetSchema,
  timeClockSavedSchema,
} from '../../../common/time-clock.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import {
  createProgram,
  getProgram,
  getProgramPolicy,
  getTimeClockPolicy,
  listPrograms,
  listTimeClockPresets,
  setProgramPolicy,
  setTimeClockPolicy,
  timeClockImpact,
  updateProgram,
} from './service.ts';

export function programsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/programs', { config: { action: 'programs:view' }, schema: { response: { 200: z.array(programSchema) } } }, async () => listPrograms(deps.db));
    app.get('/api/programs/:id', { config: { action: 'programs:view' }, schema: { params: idParam, response: { 200: programSchema } } }, async (req) =>
      getProgram(deps.db, req.params.id),
    );
    app.post(
      '/api/programs',
      { config: { action: 'programs:manage' }, schema: { body: programInputSchema, response: { 201: programSavedSchema } } },
      async (req, reply) => reply.status(201).send(await createProgram(deps.db, req.body, { actorId: req.user!.id, ip: req.ip })),
    );
    app.put(
      '/api/programs/:id',
      { config: { action: 'programs:manage' }, schema: { params: idParam, body: programInputSchema, response: { 200: programSavedSchema } } },
      async (req) => updateProgram(deps.db, req.params.id, req.body, { actorId: req.user!.id, ip: req.ip }),
    );

    // The clock-hour policy (COMPLIANCE.md): everyone who sees the program reads it, administrators set it.
    app.get(
      '/api/programs/:id/policy',
      { config: { action: 'programs:view' }, schema: { params: idParam, response: { 200: programPolicySchema } } },
      async (req) => getProgramPolicy(deps.db, req.params.id),
    );
    app.put(
      '/api/programs/:id/policy',
      { config: { action: 'programs:manage' }, schema: { params: idParam, body: programPolicyInputSchema, response: { 200: programPolicySchema } } },
      async (req) => setProgramPolicy(deps.db, req.params.id, req.body, { actorId: req.user!.id, ip: req.ip }),
    );

    // Time-clock rules (decision 050): read like the clock-hour policy, set by administrators, kept as versions by date.
    app.get(
      '/api/programs/:id/time-clock',
      { config: { action: 'programs:view' }, schema: { params: idParam, response: { 200: timeClockPolicySchema } } },
      async (req) => getTimeClockPolicy(deps.db, req.params.id, deps.clock),
    );
    app.put(
      '/api/programs/:id/time-clock',
      { config: { action: 'programs:manage' }, schema: { params: idParam, body: timeClockInputSchema, response: { 200: timeClockSavedSchema } } },
      async (req) => setTimeClockPolicy(deps.db, req.params.id, req.body, { actorId: req.user!.id, ip: req.ip, clock: deps.clock }),
    );
    app.get(
      '/api/programs/:id/time-clock/impact',
      { config: { action: 'programs:manage' }, schema: { params: idParam, querystring: timeClockImpactQuerySchema, response: { 200: timeClockImpactSchema } } },
      async (req) => timeClockImpact(deps.db, req.params.id, req.query.effectiveFrom),
    );
    app.get('/api/time-clock/presets', { config: { action: 'programs:view' }, schema: { response: { 200: z.array(timeClockPresetSchema) } } }, async () =>
      listTimeClockPresets(),
    );
  };
}
