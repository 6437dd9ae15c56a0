import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attendanceExportFilterSchema } from '../../../common/exports.ts';
import { sisStatusSchema } from '../../../common/sis.ts';
import type { AppDeps } from '../../app-deps.ts';
import { exportAttendanceToSis, sisStatus } from './service.ts';

export function sisRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/sis/status', { config: { action: 'data:manage' }, schema: { response: { 200: sisStatusSchema } } }, async () => sisStatus(deps.db));
    // The attendance export handed to the SIS: the file of GET /api/export/attendance, and its
    // waiting records marked synced once it is written (decision 032). A POST: it changes records.
    app.post('/api/sis/attendance-export', { config: { action: 'data:manage' }, schema: { body: attendanceExportFilterSchema } }, async (req, reply) => {
      const { headers, stream } = await exportAttendanceToSis(deps.db, req.body, { actorId: req.user!.id, ip: req.ip, clock: deps.clock });
      stream.on('error', (err) => req.log.error({ err }, 'SIS attendance export failed mid-stream'));
      return reply.headers(headers).send(stream);
    });
  };
}
