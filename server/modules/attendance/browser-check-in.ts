import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AttendanceSubmit, AttendanceSubmitResult } from '../../../common/attendance.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { checkInDevice, passFromCookie } from '../qr-sessions/service.ts';
import { browserSignature } from './proxy-flags.ts';
import { submitAttendance } from './submit.ts';

/**
 * A check-in as a phone's browser sends it, for POST /api/attendance/submit and the scan page's
 * form alike (server/modules/scan): the device is the browser's cookie (a new one when it has
 * none), and the pass cookie that opening the link set stands in for a pass the body lacks (SPEC's
 * six fields carry none, nor does the form, which has no script to hold one).
 */
export function checkInFromBrowser(
  deps: { db: Db; clock: Clock; secureCookies: boolean },
  req: FastifyRequest,
  reply: FastifyReply,
  body: AttendanceSubmit,
): Promise<AttendanceSubmitResult> {
  const device = checkInDevice(req, reply, deps.secureCookies);
  const passCookie = passFromCookie(req, body.sessionId);
  const input = body.pass || body.token || !passCookie ? body : { ...body, pass: passCookie };
  return submitAttendance(deps.db, input, {
    deviceId: device.id,
    devicePresented: device.presented,
    ip: req.ip,
    browserSignature: browserSignature(req.headers),
    clock: deps.clock,
    onProxyCheckFailed: (err) => req.log.error({ code: (err as { code?: unknown }).code }, 'proxy check after a check-in failed'),
  });
}
