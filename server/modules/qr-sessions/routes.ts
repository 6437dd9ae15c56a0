import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  publicSessionQuerySchema,
  qrImageSchema,
  startCheckQuerySchema,
  startCheckSchema,
  typedCodeResultSchema,
  typedCodeSchema,
} from '../../../common/attendance.ts';
import {
  extendSessionSchema,
  publicSessionAnswerSchema,
  qrSessionAnswerSchema,
  qrSessionDetailSchema,
  startedSessionAnswerSchema,
} from '../../../common/qr-sessions.ts';
import { dbId } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import {
  PUBLIC_RATE_LIMIT,
  TYPED_CODE_RATE_LIMIT,
  checkInDevice,
  currentQrImage,
  endSession,
  extendSession,
  getSession,
  listActiveSessions,
  publicSession,
  sessionForTypedCode,
  setPassCookie,
  startCheck,
  startSession,
} from './service.ts';

// Staff routes take the numeric id or the UUID; the public read finds a session by its UUID only
// (anything else is Session Not Found), so sessions cannot be walked by counting.
const refParam = z.object({ id: z.string().min(1).max(64) });

export function qrSessionsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ctx = (req: FastifyRequest) => ({ clock: deps.clock, ip: req.ip });
  const baseUrl = (req: FastifyRequest) => deps.config.publicUrl ?? `${req.protocol}://${req.headers.host}`;
  const secure = (req: FastifyRequest) => deps.config.cookieSecure ?? req.protocol === 'https';

  return async (app) => {
    app.get('/api/qr-sessions/active', { config: { action: 'attendance:take' }, schema: { response: { 200: z.array(qrSessionAnswerSchema) } } }, async (req) =>
      listActiveSessions(deps.db, req.user!, deps.clock.now()),
    );
    app.post(
      '/api/qr-sessions',
      {
        config: { action: 'attendance:take' },
        schema: {
          body: z.object({ scheduleId: dbId('scheduleId', { required: 'No Schedule Selected: Please select a class schedule first.' }) }),
          response: { 201: startedSessionAnswerSchema },
        },
      },
      async (req, reply) => reply.status(201).send(await startSession(deps.db, req.user!, req.body.scheduleId, ctx(req))),
    );
    // Before Start Session: does the class meet now? (The screen asks before starting one that does not.)
    app.get(
      '/api/qr-sessions/start-check',
      { config: { action: 'attendance:take' }, schema: { querystring: startCheckQuerySchema, response: { 200: startCheckSchema } } },
      async (req) => startCheck(deps.db, req.user!, req.query.scheduleId, deps.clock.now()),
    );
    // One session, open or closed: the projector follows it (its close, an extension from another screen, how it closed),
    // Take Attendance its meeting's break (decision 052).
    app.get(
      '/api/qr-sessions/:id',
      { config: { action: 'attendance:take' }, schema: { params: refParam, response: { 200: qrSessionDetailSchema } } },
      async (req) => getSession(deps.db, req.user!, req.params.id, deps.clock.now()),
    );
    app.put(
      '/api/qr-sessions/:id/deactivate',
      { config: { action: 'attendance:take' }, schema: { params: refParam, response: { 200: qrSessionAnswerSchema } } },
      async (req) => endSession(deps.db, req.user!, req.params.id, ctx(req)),
    );
    // Keep an open session open longer (the projector's Extend): same access as starting one.
    app.post(
      '/api/qr-sessions/:id/extend',
      { config: { action: 'attendance:take' }, schema: { params: refParam, body: extendSessionSchema, response: { 200: qrSessionAnswerSchema } } },
      async (req) => extendSession(deps.db, req.user!, req.params.id, req.body.minutes, ctx(req)),
    );
    app.get(
      '/api/qr-sessions/:id/qr-image',
      { config: { action: 'attendance:take' }, schema: { params: refParam, response: { 200: qrImageSchema } } },
      async (req) => currentQrImage(deps.db, req.user!, req.params.id, baseUrl(req), deps.clock.now()),
    );
    app.get(
      '/api/qr-sessions/public/:id',
      {
        config: { public: true, rateLimit: PUBLIC_RATE_LIMIT },
        schema: { params: refParam, querystring: publicSessionQuerySchema, response: { 200: publicSessionAnswerSchema } },
      },
      async (req, reply) => {
        const session = await publicSession(deps.db, req.params.id, req.query.t, checkInDevice(req, reply, secure(req)).id, deps.clock.now());
        setPassCookie(reply, secure(req), session.sessionId, session.pass, session.passExpiresAt);
        return session;
      },
    );
    app.post(
      '/api/qr-sessions/code',
      { config: { public: true, rateLimit: TYPED_CODE_RATE_LIMIT }, schema: { body: typedCodeSchema, response: { 200: typedCodeResultSchema } } },
      async (req, reply) => {
        const found = await sessionForTypedCode(deps.db, req.body.code, checkInDevice(req, reply, secure(req)).id, { ip: req.ip, now: deps.clock.now() });
        setPassCookie(reply, secure(req), found.sessionId, found.pass, found.passExpiresAt);
        return found;
      },
    );
  };
}
