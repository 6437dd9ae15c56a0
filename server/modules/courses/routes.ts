import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bulkUploadResultSchema, courseInputSchema, courseSavedSchema, courseSchema } from '../../../common/courses.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { readUploadedFile } from '../../lib/upload.ts';
import { bulkUploadCourses, createCourse, exportCourses, listCourses, refuseCourseUpload, toggleCourseStatus, updateCourse, uploadLimitMB } from './service.ts';

export function coursesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ctx = (req: FastifyRequest) => ({ actorId: req.user!.id, ip: req.ip });
  return async (app) => {
    app.get('/api/courses', { config: { action: 'courses:view' }, schema: { response: { 200: z.array(courseSchema) } } }, async () => listCourses(deps.db));
    app.post(
      '/api/courses',
      { config: { action: 'courses:manage' }, schema: { body: courseInputSchema, response: { 201: courseSavedSchema } } },
      async (req, reply) => reply.status(201).send(await createCourse(deps.db, req.body, ctx(req))),
    );
    app.put(
      '/api/courses/:id',
      { config: { action: 'courses:manage' }, schema: { params: idParam, body: courseInputSchema, response: { 200: courseSavedSchema } } },
      async (req) => updateCourse(deps.db, req.params.id, req.body, ctx(req)),
    );
    app.patch(
      '/api/courses/:id/toggle-status',
      { config: { action: 'courses:manage' }, schema: { params: idParam, response: { 200: courseSchema } } },
      async (req) => toggleCourseStatus(deps.db, req.params.id, ctx(req)),
    );

    app.get('/api/courses/export', { config: { action: 'courses:manage' } }, async (req, reply) => {
      const { headers, body } = await exportCourses(deps.db, deps.clock, ctx(req));
      return reply.headers(headers).send(body);
    });

    app.post('/api/courses/bulk-upload', { config: { action: 'courses:manage' }, schema: { response: { 200: bulkUploadResultSchema } } }, async (req) => {
      const file = await readUploadedFile(req, { maxFileUploadSizeMB: await uploadLimitMB(deps.db) }).catch((err: unknown) =>
        refuseCourseUpload(deps.db, err, ctx(req)),
      );
      return bulkUploadCourses(deps, file, ctx(req));
    });
  };
}
