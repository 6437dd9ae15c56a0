import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  rosterAddSchema,
  rosterEntrySchema,
  rosterPreviewQuerySchema,
  rosterPreviewSchema,
  scheduleCreateSchema,
  scheduleInputSchema,
  scheduleSchema,
  todayClassesSchema,
} from '../../../common/schedules.ts';
import { dbId, idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import {
  addToRoster,
  usableSchedule,
  createSchedule,
  listInstructorSchedules,
  listRosterFor,
  listTodaysClasses,
  listVisibleSchedules,
  previewRoster,
  removeFromRoster,
  updateSchedule,
} from './service.ts';

export function schedulesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ctx = (req: FastifyRequest) => ({ actorId: req.user!.id, ip: req.ip, clock: deps.clock });
  return async (app) => {
    // Instructors get their own schedules here; admins and support staff the whole school.
    app.get(
      '/api/schedules',
      {
        config: { action: 'schedules:view' },
        schema: { querystring: z.object({ search: z.string().trim().max(200).optional() }), response: { 200: z.array(scheduleSchema) } },
      },
      async (req) => listVisibleSchedules(deps.db, req.user!, req.query.search),
    );
    // Today's meetings with their open QR sessions: for those who take attendance (an instructor's own).
    app.get('/api/schedules/today', { config: { action: 'attendance:take' }, schema: { response: { 200: todayClassesSchema } } }, async (req) =>
      listTodaysClasses(deps.db, req.user!, deps.clock),
    );
    // Before a schedule exists: who each roster choice of the create form would bring (decision 047).
    app.get(
      '/api/schedules/roster-preview',
      { config: { action: 'schedules:manage' }, schema: { querystring: rosterPreviewQuerySchema, response: { 200: rosterPreviewSchema } } },
      async (req) => previewRoster(deps.db, req.query),
    );
    app.get(
      '/api/schedules/instructor/:userId',
      { config: { action: 'schedules:view' }, schema: { params: z.object({ userId: dbId('userId') }), response: { 200: z.array(scheduleSchema) } } },
      async (req) => listInstructorSchedules(deps.db, req.user!, req.params.userId),
    );
    app.get('/api/schedules/:id', { config: { action: 'schedules:view' }, schema: { params: idParam, response: { 200: scheduleSchema } } }, async (req) =>
      usableSchedule(deps.db, req.user!, req.params.id),
    );
    app.post(
      '/api/schedules',
      { config: { action: 'schedules:manage' }, schema: { body: scheduleCreateSchema, response: { 201: scheduleSchema } } },
      async (req, reply) => reply.status(201).send(await createSchedule(deps.db, req.body, ctx(req))),
    );
    app.put(
      '/api/schedules/:id',
      { config: { action: 'schedules:manage' }, schema: { params: idParam, body: scheduleInputSchema, response: { 200: scheduleSchema } } },
      async (req) => updateSchedule(deps.db, req.params.id, req.body, ctx(req)),
    );
    app.get(
      '/api/schedules/:id/roster',
      { config: { action: 'schedules:view' }, schema: { params: idParam, response: { 200: z.array(rosterEntrySchema) } } },
      async (req) => listRosterFor(deps.db, req.user!, req.params.id),
    );
    app.post(
      '/api/schedules/:id/roster',
      { config: { action: 'schedules:manage' }, schema: { params: idParam, body: rosterAddSchema, response: { 200: z.array(rosterEntrySchema) } } },
      async (req) => addToRoster(deps.db, req.params.id, req.body.studentIds, ctx(req)),
    );
    app.delete(
      '/api/schedules/:id/roster/:studentId',
      { config: { action: 'schedules:manage' }, schema: { params: idParam.extend({ studentId: dbId('studentId') }) } },
      async (req, reply) => {
        await removeFromRoster(deps.db, req.params.id, req.params.studentId, ctx(req));
        return reply.status(204).send();
      },
    );
  };
}
