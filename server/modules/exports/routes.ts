import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isoDate } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { exportAttendance } from './service.ts';

const optionalDate = (label: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v ? v : null))
    .pipe(isoDate(label).nullable());

const attendanceExportQuery = z
  .object({ startDate: optionalDate('startDate'), endDate: optionalDate('endDate') })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, { path: ['endDate'], message: 'endDate must not be before startDate' });

/** GET /api/export/attendance: the SIS attendance CSV, streamed (SPEC §3 columns plus clock-hour details). */
export function exportsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/export/attendance', { config: { action: 'data:manage' }, schema: { querystring: attendanceExportQuery } }, async (req, reply) => {
      const { headers, stream } = await exportAttendance(deps.db, req.query, { actorId: req.user!.id, ip: req.ip, clock: deps.clock });
      stream.on('error', (err) => req.log.error({ err }, 'attendance export failed mid-stream'));
      return reply.headers(headers).send(stream);
    });
  };
}
