import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bulkUploadResultSchema, courseInputSchema, courseSchema } from '../../../common/courses.ts';
import { idParam } from '../../../common/validation.ts';
import { getSettings } from '../settings/service.ts';
import type { AppDeps } from '../../app-deps.ts';
import { csvDownloadHeaders, csvStream } from '../../lib/csv.ts';
import { AppError } from '../../lib/errors.ts';
import { readTabular } from '../../lib/tabular-file.ts';
import { readUploadedFile } from '../../lib/upload.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { COURSE_BULK_COLUMNS, importCourses } from './bulk-import.ts';
import { createCourse, listCourses, toggleCourseStatus, updateCourse } from './service.ts';

export function coursesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ctx = (req: FastifyRequest) => ({ actorId: req.user!.id, ip: req.ip });
  return async (app) => {
    app.get('/api/courses', { config: { action: 'courses:view' }, schema: { response: { 200: z.array(courseSchema) } } }, async () => listCourses(deps.db));
    app.post('/api/courses', { config: { action: 'courses:manage' }, schema: { body: courseInputSchema, response: { 201: courseSchema } } }, async (req, reply) =>
      reply.status(201).send(await createCourse(deps.db, req.body, ctx(req))),
    );
    app.put('/api/courses/:id', { config: { action: 'courses:manage' }, schema: { params: idParam, body: courseInputSchema, response: { 200: courseSchema } } }, async (req) =>
      updateCourse(deps.db, req.params.id, req.body, ctx(req)),
    );
    app.patch('/api/courses/:id/toggle-status', { config: { action: 'courses:manage' }, schema: { params: idParam, response: { 200: courseSchema } } }, async (req) =>
      toggleCourseStatus(deps.db, req.params.id, ctx(req)),
    );

    // Same columns as the bulk import plus isActive, so an export can be edited and imported back.
    app.get('/api/courses/export', { config: { action: 'courses:manage' } }, async (req, reply) => {
      const courses = await listCourses(deps.db);
      await recordAudit(deps.db, { userId: req.user!.id, action: 'Export', tableName: 'courses', ipAddress: req.ip, newValues: { rows: courses.length } });
      const date = deps.clock.now().toISOString().slice(0, 10);
      const csv = csvStream([...COURSE_BULK_COLUMNS, 'isActive']);
      for (const c of courses) {
        csv.write({ ...c, clockHours: c.clockHours ?? '', prerequisiteIds: JSON.stringify(c.prerequisiteIds), isActive: c.isActive });
      }
      csv.end();
      return reply.headers(csvDownloadHeaders(`courses-export-${date}.csv`)).send(csv);
    });

    app.post('/api/courses/bulk-upload', { config: { action: 'courses:manage' }, schema: { response: { 200: bulkUploadResultSchema } } }, async (req) => {
      const file = await readUploadedFile(req, { maxFileUploadSizeMB: (await getSettings(deps.db)).system.maxFileUploadSizeMB });
      const result = await importCourses(deps.db, readTabular(file.buffer, file.kind), { ...ctx(req), fileName: file.fileName });
      if (result.errors.length > 0) {
        throw new AppError(400, 'IMPORT_INVALID', `Nothing was imported: ${result.errors.length} problem(s) in the file`, { imported: 0, errors: result.errors });
      }
      return result;
    });
  };
}
