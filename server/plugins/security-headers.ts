import type { FastifyInstance } from 'fastify';
import { matchedAccess } from './authorization.ts';

// Static headers set once per response; measured far cheaper than @fastify/helmet (docs/ARCHITECTURE.md).
const HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

const HSTS = 'max-age=31536000; includeSubDomains';

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    for (const [k, v] of Object.entries(HEADERS)) {
      // A route may send its own referrer policy (a student's hours link, whose URL is a credential).
      if (k === 'referrer-policy' && reply.hasHeader(k)) continue;
      reply.header(k, v);
    }
    // HSTS on every answer that went out over HTTPS, and only then: req.protocol follows
    // X-Forwarded-Proto only from a proxy named in TRUST_PROXY (docs/decisions/035).
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    // Only the built web app's files may be cached; every API answer (and every 404) is no-store.
    const access = matchedAccess(req);
    if (access !== 'static' && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
