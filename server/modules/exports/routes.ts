import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attendanceExportFilterSchema } from '../../../common/exports.ts';
import type { AppDeps } from '../../app-deps.ts';
import { exportAnalytics, exportAttendance } from './service.ts';

/**
 * GET /api/export/attendance: the SIS attendance CSV, streamed (SPEC §3 columns plus clock-hour
 * details), for SPEC's optional date range and, optionally, one program, course or student.
 * GET /api/export/analytics: the dashboard's Analytics figures as CSV, as the viewer sees them.
 */
export function exportsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/export/attendance', { config: { action: 'data:manage' }, schema: { querystring: attendanceExportFilterSchema } }, async (req, reply) => {
      const { headers, stream } = await exportAttendance(deps.db, req.query, { actorId: req.user!.id, ip: req.ip, clock: deps.clock });
      stream.on('error', (err) => req.log.error({ err }, 'attendance export failed mid-stream'));
      return reply.headers(headers).send(stream);
    });
    app.get('/api/export/analytics', { config: { action: 'dashboard:view' } }, async (req, reply) => {
      const { headers, body } = await exportAnalytics({ db: deps.db, user: req.user!, now: deps.clock.now(), ip: req.ip });
      return reply.headers(headers).send(body);
    });
  };
}
