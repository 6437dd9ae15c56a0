import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can } from '../../../common/permissions.ts';
import { studentExportQuerySchema, studentInputSchema, studentListQuerySchema, studentSchema } from '../../../common/students.ts';
import { TOTAL_COUNT_HEADER, idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { createStudent, deleteStudent, exportStudents, getStudent, listStudents, studentReader, updateStudent } from './service.ts';

export function studentsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const showSsn = (req: FastifyRequest) => can(req.user!.role, 'students:view-ssn');
  // Reads are limited to what the signed-in user needs to know (instructors: their rosters).
  const reader = (req: FastifyRequest) => studentReader(req.user!, showSsn(req));
  const ctx = (req: FastifyRequest) => ({
    actorId: req.user!.id,
    role: req.user!.role,
    ip: req.ip,
    clock: deps.clock,
    cipher: deps.cipher,
    showSsn: showSsn(req),
  });

  return async (app) => {
    // An array, as SPEC clients expect; with page/pageSize it is one page and X-Total-Count has the total.
    app.get(
      '/api/students',
      { config: { action: 'students:view' }, schema: { querystring: studentListQuerySchema, response: { 200: z.array(studentSchema) } } },
      async (req, reply) => {
        const { items, total } = await listStudents(deps.db, req.query, reader(req));
        reply.header(TOTAL_COUNT_HEADER, String(total));
        return items;
      },
    );
    // The filtered list as CSV (same search, filters and sort as the list; every page).
    app.get('/api/students/export', { config: { action: 'students:export' }, schema: { querystring: studentExportQuerySchema } }, async (req, reply) => {
      const { headers, body } = await exportStudents(deps.db, req.query, reader(req), { actorId: req.user!.id, ip: req.ip, clock: deps.clock });
      return reply.headers(headers).send(body);
    });
    app.get('/api/students/:id', { config: { action: 'students:view' }, schema: { params: idParam, response: { 200: studentSchema } } }, async (req) =>
      getStudent(deps.db, req.params.id, reader(req)),
    );
    app.post(
      '/api/students',
      { config: { action: 'students:manage' }, schema: { body: studentInputSchema, response: { 201: studentSchema } } },
      async (req, reply) => reply.status(201).send(await createStudent(deps.db, req.body, ctx(req))),
    );
    app.put(
      '/api/students/:id',
      { config: { action: 'students:manage' }, schema: { params: idParam, body: studentInputSchema, response: { 200: studentSchema } } },
      async (req) => updateStudent(deps.db, req.params.id, req.body, ctx(req)),
    );
    app.delete('/api/students/:id', { config: { action: 'students:manage' }, schema: { params: idParam } }, async (req, reply) => {
      await deleteStudent(deps.db, req.params.id, ctx(req));
      return reply.status(204).send();
    });
  };
}
