import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  exceptionRatesQuerySchema,
  exceptionRatesSchema,
  missedPunchApproveSchema,
  missedPunchDeclineSchema,
  missedPunchListQuerySchema,
  missedPunchPageSchema,
  missedPunchRequestSchema,
  studentExceptionsSchema,
} from '../../../common/missed-punches.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { approveMissedPunch, declineMissedPunch, exceptionRates, listMissedPunchRequests, studentExceptions } from './service.ts';

/**
 * Staff's side of missed-punch requests (docs/decisions/053): the requests, approve and
 * decline (the class's instructor for their own schedules, administrators for all), and exception
 * rates. Students ask on server-rendered pages (the student-hours module).
 */
export function missedPunchesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const ctx = (ip: string) => ({ clock: deps.clock, ip });
    app.get(
      '/api/missed-punch-requests',
      { config: { action: 'attendance:take' }, schema: { querystring: missedPunchListQuerySchema, response: { 200: missedPunchPageSchema } } },
      async (req) => listMissedPunchRequests(deps.db, req.user!, req.query),
    );
    app.post(
      '/api/missed-punch-requests/:id/approve',
      { config: { action: 'attendance:take' }, schema: { params: idParam, body: missedPunchApproveSchema, response: { 200: missedPunchRequestSchema } } },
      async (req) => approveMissedPunch(deps.db, req.user!, req.params.id, req.body, ctx(req.ip)),
    );
    app.post(
      '/api/missed-punch-requests/:id/decline',
      { config: { action: 'attendance:take' }, schema: { params: idParam, body: missedPunchDeclineSchema, response: { 200: missedPunchRequestSchema } } },
      async (req) => declineMissedPunch(deps.db, req.user!, req.params.id, req.body.reason, ctx(req.ip)),
    );
    // Read by everyone who reads hours; instructors count their own classes only.
    app.get(
      '/api/missed-punch-requests/exception-rates',
      { config: { action: 'hours:view' }, schema: { querystring: exceptionRatesQuerySchema, response: { 200: exceptionRatesSchema } } },
      async (req) => exceptionRates(deps.db, req.user!, req.query),
    );
    app.get(
      '/api/students/:id/exceptions',
      { config: { action: 'hours:view' }, schema: { params: idParam, response: { 200: studentExceptionsSchema } } },
      async (req) => studentExceptions(deps.db, req.user!, req.params.id),
    );
  };
}
