import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { endMeetingBreakSchema, meetingBreakAnswerSchema } from '../../../common/qr-sessions.ts';
import type { AppDeps } from '../../app-deps.ts';
import { endMeetingBreak, startMeetingBreak } from './service.ts';

// A session is named as the qr-sessions staff routes name it: its numeric id or its UUID.
const refParam = z.object({ id: z.string().min(1).max(64) });

/** Instructor-led breaks on Take Attendance (docs/decisions/052): the same access as running the session. */
export function meetingBreaksRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ctx = (req: FastifyRequest) => ({ clock: deps.clock, ip: req.ip });
  return async (app) => {
    app.post(
      '/api/qr-sessions/:id/break',
      { config: { action: 'attendance:take' }, schema: { params: refParam, response: { 201: meetingBreakAnswerSchema } } },
      async (req, reply) => reply.status(201).send(await startMeetingBreak(deps.db, req.user!, req.params.id, ctx(req))),
    );
    app.post(
      '/api/qr-sessions/:id/break/end',
      {
        config: { action: 'attendance:take' },
        schema: { params: refParam, body: endMeetingBreakSchema.nullish(), response: { 200: meetingBreakAnswerSchema } },
      },
      async (req) => endMeetingBreak(deps.db, req.user!, req.params.id, req.body?.recheckMinutes, ctx(req)),
    );
  };
}
