import type { FastifyInstance } from 'fastify';

/**
 * One structured log line per request, written when the answer is out: its request id (the
 * caller's `x-request-id` when given, returned in the same header), method, the route pattern that
 * matched (`/api/students/:id`, never the raw URL with its query values), status and time.
 * Nothing personal: no address, no query values, no body, no user.
 */
export function registerRequestLog(app: FastifyInstance): void {
  // onSend runs for every answer, refusals from onRequest hooks included.
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-request-id', req.id);
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    const line = {
      reqId: req.id,
      method: req.method,
      route: req.routeOptions.url ?? '(no route)',
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (reply.statusCode >= 500) req.log.error(line, 'request');
    else req.log.info(line, 'request');
  });
}
