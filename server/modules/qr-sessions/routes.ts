import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SCAN_CODE_NO_MATCH, publicSessionQuerySchema, publicSessionSchema, qrImageSchema, qrSessionSchema, typedCodeResultSchema, typedCodeSchema } from '../../../common/attendance.ts';
import { dbId } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { AppError } from '../../lib/errors.ts';
import { currentQrImage, endSession, listActiveSessions, publicSession, sessionForTypedCode, startSession } from './service.ts';

export const DEVICE_COOKIE = 'muster_device';
// A campus behind one school Wi-Fi address: a class of 60, even a morning rush of 1,000, must get
// through. Guessing six-digit codes is stopped by counting every typed code per address and per
// (address, session) (code-attempts.ts), not by this limit.
export const PUBLIC_RATE_LIMIT = { max: 3000, timeWindow: '1 minute' };
// /attendance/scan tries a typed code against every open session: a class's worth of requests a minute.
const TYPED_CODE_RATE_LIMIT = { max: 300, timeWindow: '1 minute' };

export type CheckInDevice = {
  id: string;
  /** The browser sent its device cookie; false when this request was given a new one. */
  presented: boolean;
};

/** A random id per phone, kept in an httpOnly cookie, so one device cannot check in several students. */
export function checkInDevice(req: FastifyRequest, reply: FastifyReply, secure: boolean): CheckInDevice {
  const existing = req.cookies[DEVICE_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{16,64}$/.test(existing)) return { id: existing, presented: true };
  const id = randomBytes(16).toString('base64url');
  reply.setCookie(DEVICE_COOKIE, id, { path: '/api', httpOnly: true, sameSite: 'lax', secure, maxAge: 60 * 60 * 24 * 365 });
  return { id, presented: false };
}

/**
 * The pass that opening the QR link (or typing the code) gives also travels as an httpOnly cookie
 * named after its session, sent only to the submit route: a SPEC client that posts the six fields
 * without `pass` or `token` still checks in from the phone that opened the link.
 */
export const passCookieName = (sessionUuid: string) => `muster_pass_${sessionUuid.replace(/-/g, '').toLowerCase()}`;
export const PASS_COOKIE_PATH = '/api/attendance/submit';

function setPassCookie(reply: FastifyReply, secure: boolean, sessionUuid: string, pass: string | null, expiresAt: string | null): void {
  if (!pass || !expiresAt) return;
  const maxAge = Math.max(1, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  reply.setCookie(passCookieName(sessionUuid), pass, { path: PASS_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure, maxAge });
}

// Staff routes take the numeric id or the UUID; the public read finds a session by its UUID only
// (anything else is Session Not Found), so sessions cannot be walked by counting.
const refParam = z.object({ id: z.string().min(1).max(64) });

export function qrSessionsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ctx = (req: FastifyRequest) => ({ clock: deps.clock, ip: req.ip });
  const baseUrl = (req: FastifyRequest) => deps.config.publicUrl ?? `${req.protocol}://${req.headers.host}`;
  const secure = (req: FastifyRequest) => deps.config.cookieSecure ?? req.protocol === 'https';

  return async (app) => {
    app.get('/api/qr-sessions/active', { config: { action: 'attendance:take' }, schema: { response: { 200: z.array(qrSessionSchema) } } }, async (req) =>
      listActiveSessions(deps.db, req.user!, deps.clock.now()),
    );
    app.post(
      '/api/qr-sessions',
      { config: { action: 'attendance:take' }, schema: { body: z.object({ scheduleId: dbId('scheduleId', { required: 'No Schedule Selected: Please select a class schedule first.' }) }), response: { 201: qrSessionSchema } } },
      async (req, reply) => reply.status(201).send(await startSession(deps.db, req.user!, req.body.scheduleId, ctx(req))),
    );
    app.put('/api/qr-sessions/:id/deactivate', { config: { action: 'attendance:take' }, schema: { params: refParam, response: { 200: qrSessionSchema } } }, async (req) =>
      endSession(deps.db, req.user!, req.params.id, ctx(req)),
    );
    app.get('/api/qr-sessions/:id/qr-image', { config: { action: 'attendance:take' }, schema: { params: refParam, response: { 200: qrImageSchema } } }, async (req) =>
      currentQrImage(deps.db, req.user!, req.params.id, baseUrl(req), deps.clock.now()),
    );
    app.get(
      '/api/qr-sessions/public/:id',
      {
        config: { public: true, rateLimit: PUBLIC_RATE_LIMIT },
        schema: { params: refParam, querystring: publicSessionQuerySchema, response: { 200: publicSessionSchema } },
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
        if (!found) throw new AppError(404, 'CODE_NOT_FOUND', SCAN_CODE_NO_MATCH);
        setPassCookie(reply, secure(req), found.sessionId, found.pass, found.passExpiresAt);
        return found;
      },
    );
  };
}
