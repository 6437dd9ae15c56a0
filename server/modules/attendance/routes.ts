import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  attendanceRowSchema,
  cancelMeetingSchema,
  meetingParamsSchema,
  meetingToReviewSchema,
  attendanceSubmitResultSchema,
  attendanceSubmitSchema,
  clockHoursQuerySchema,
  clockHoursSchema,
  manualRecordSchema,
  overrideSchema,
  scheduleAttendanceParamsSchema,
  scheduleAttendanceQuerySchema,
} from '../../../common/attendance.ts';
import { checkInFlagSchema, flagReviewParamsSchema, flagReviewSchema } from '../../../common/check-in-flags.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import {
  PUBLIC_RATE_LIMIT,
  cancelMeeting,
  checkInFromBrowser,
  clockHours,
  createManualRecord,
  listScheduleAttendance,
  meetingsToReview,
  overrideAttendance,
  restoreMeeting,
  reviewFlag,
  undoCheckOut,
} from './service.ts';

export function attendanceRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/attendance/submit',
      { config: { public: true, rateLimit: PUBLIC_RATE_LIMIT }, schema: { body: attendanceSubmitSchema, response: { 200: attendanceSubmitResultSchema } } },
      async (req, reply) =>
        checkInFromBrowser({ db: deps.db, clock: deps.clock, secureCookies: deps.config.cookieSecure ?? req.protocol === 'https' }, req, reply, req.body),
    );
    app.get(
      '/api/attendance/schedule/:scheduleId',
      {
        config: { action: 'attendance:take' },
        schema: { params: scheduleAttendanceParamsSchema, querystring: scheduleAttendanceQuerySchema, response: { 200: z.array(attendanceRowSchema) } },
      },
      async (req) => listScheduleAttendance(deps.db, req.user!, req.params.scheduleId, req.query.date, deps.clock),
    );
    app.put(
      '/api/attendance/:id',
      { config: { action: 'attendance:take' }, schema: { params: idParam, body: overrideSchema, response: { 200: attendanceRowSchema } } },
      async (req) => overrideAttendance(deps.db, req.user!, req.params.id, req.body, { clock: deps.clock, ip: req.ip }),
    );
    // One action for a check-out made by mistake (decision 039): the check-in again; the history keeps the check-out.
    app.post(
      '/api/attendance/:id/undo-check-out',
      { config: { action: 'attendance:take' }, schema: { params: idParam, response: { 200: attendanceRowSchema } } },
      async (req) => undoCheckOut(deps.db, req.user!, req.params.id, { clock: deps.clock, ip: req.ip }),
    );
    // A class that did not meet (decision 043): never scheduled, never an absence; audited with the reason.
    app.post(
      '/api/schedules/:id/meetings/:date/cancel',
      { config: { action: 'attendance:take' }, schema: { params: meetingParamsSchema, body: cancelMeetingSchema } },
      async (req, reply) => {
        await cancelMeeting(deps.db, req.user!, req.params.id, req.params.date, req.body.reason, { clock: deps.clock, ip: req.ip });
        return reply.status(204).send();
      },
    );
    app.delete(
      '/api/schedules/:id/meetings/:date/cancel',
      { config: { action: 'attendance:take' }, schema: { params: meetingParamsSchema, body: cancelMeetingSchema } },
      async (req, reply) => {
        await restoreMeeting(deps.db, req.user!, req.params.id, req.params.date, req.body.reason, { clock: deps.clock, ip: req.ip });
        return reply.status(204).send();
      },
    );
    // Meetings that ended with nothing recorded for anyone: not counted as absences until reviewed.
    app.get(
      '/api/attendance/meetings-to-review',
      { config: { action: 'attendance:take' }, schema: { response: { 200: z.array(meetingToReviewSchema) } } },
      async (req) => meetingsToReview(deps.db, req.user!, deps.clock),
    );
    app.post(
      '/api/attendance',
      { config: { action: 'attendance:take' }, schema: { body: manualRecordSchema, response: { 201: attendanceRowSchema } } },
      async (req, reply) => reply.status(201).send(await createManualRecord(deps.db, req.user!, req.body, { clock: deps.clock, ip: req.ip })),
    );
    app.post(
      '/api/attendance/flags/:flagId/review',
      { config: { action: 'attendance:take' }, schema: { params: flagReviewParamsSchema, body: flagReviewSchema, response: { 200: checkInFlagSchema } } },
      async (req) => reviewFlag(deps.db, req.user!, req.params.flagId, req.body.decision, { clock: deps.clock, ip: req.ip }),
    );
    app.get(
      '/api/attendance/clock-hours',
      {
        config: { action: 'attendance:take' },
        schema: {
          querystring: clockHoursQuerySchema,
          response: { 200: z.array(clockHoursSchema) },
        },
      },
      async (req) => clockHours(deps.db, req.user!, req.query),
    );
  };
}
