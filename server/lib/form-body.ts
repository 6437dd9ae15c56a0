import type { FastifyInstance } from 'fastify';

/**
 * Accept HTML form posts (application/x-www-form-urlencoded) in the calling plugin's scope: the
 * pages that work without script (unsubscribe, a student's hours) post plain forms. Fields arrive
 * as strings; the route's schema validates them like any JSON body.
 */
export function acceptFormPosts(app: FastifyInstance, bodyLimit = 4096): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}
