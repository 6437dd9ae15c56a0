import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicSessionQuerySchema } from '../../../common/attendance.ts';
import type { AppDeps } from '../../app-deps.ts';
import { acceptFormPosts } from '../../lib/form-body.ts';
import {
  PUBLIC_RATE_LIMIT,
  TYPED_CODE_RATE_LIMIT,
  codeEntryPage,
  openScanPage,
  refusalPage,
  submitCodeForm,
  submitScanForm,
  visitOf,
  type ScanAnswer,
  type ScanDeps,
} from './service.ts';

const langQuery = z.object({ lang: z.string().max(10).optional() });
// As long as the JSON routes take (a session's id is a UUID): longer names no session.
const sessionParams = z.object({ sessionId: z.string().max(64) });

function send(reply: FastifyReply, answer: ScanAnswer) {
  if ('redirect' in answer) return reply.redirect(answer.redirect, 303);
  return reply.status(answer.status).type('text/html; charset=utf-8').send(answer.html);
}

/**
 * The student's phone (docs/decisions/028): the scan page a QR code opens and the
 * typed-code page, rendered on the server and answered with pages, so they work with JavaScript
 * off; a small script (web/scan/enhance.ts, its built name in `opts.script`) enhances them.
 */
export function scanRoutes(deps: AppDeps, opts: { script: string | null }): FastifyPluginAsyncZod {
  const scan: ScanDeps = { db: deps.db, clock: deps.clock, cookieSecure: deps.config.cookieSecure, script: opts.script };
  return async (app) => {
    acceptFormPosts(app);
    // Whatever stops a request here is answered with a page in the student's language, not JSON.
    app.setErrorHandler((error, req, reply) =>
      send(reply, refusalPage(scan, visitOf(req, reply), error, (req.params as { sessionId?: string } | undefined)?.sessionId)),
    );

    app.get('/attendance/scan', { config: { public: true, rateLimit: PUBLIC_RATE_LIMIT }, schema: { querystring: langQuery } }, async (req, reply) =>
      send(reply, codeEntryPage(scan, visitOf(req, reply))),
    );
    app.post('/attendance/scan', { config: { public: true, rateLimit: TYPED_CODE_RATE_LIMIT }, schema: { querystring: langQuery } }, async (req, reply) =>
      send(reply, await submitCodeForm(scan, visitOf(req, reply), req.body)),
    );
    app.get(
      '/attendance/scan/:sessionId',
      {
        config: { public: true, rateLimit: PUBLIC_RATE_LIMIT },
        schema: { params: sessionParams, querystring: publicSessionQuerySchema.extend(langQuery.shape) },
      },
      async (req, reply) => send(reply, await openScanPage(scan, visitOf(req, reply), req.params.sessionId, req.query.t)),
    );
    app.post(
      '/attendance/scan/:sessionId',
      { config: { public: true, rateLimit: PUBLIC_RATE_LIMIT }, schema: { params: sessionParams, querystring: langQuery } },
      async (req, reply) => send(reply, await submitScanForm(scan, visitOf(req, reply), req.params.sessionId, req.body)),
    );
  };
}
