import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ssoStatusSchema } from '../../../common/auth.ts';
import type { AppDeps } from '../../app-deps.ts';
import { SESSION_COOKIE } from '../../plugins/login-sessions.ts';
import { SsoRefused, beginSsoSignIn, completeSsoSignIn, ssoStatus } from './service.ts';

/** The sign-in in flight: sent only to the callback, for ten minutes. */
const PENDING_COOKIE = 'muster_sso';
const CALLBACK_PATH = '/api/auth/sso/callback';

export function ssoRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const secure = (req: FastifyRequest) => deps.config.cookieSecure ?? req.protocol === 'https';
  const base = (req: FastifyRequest) => (deps.config.publicUrl ?? `${req.protocol}://${req.headers.host}`).replace(/\/+$/, '');
  const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent']?.slice(0, 300) ?? null });
  const refuse = (reply: FastifyReply, err: unknown) => {
    if (err instanceof SsoRefused) return reply.redirect(`/login?sso_error=${err.reason}`);
    throw err;
  };
  const limit = { max: 60, timeWindow: '1 minute' };

  return async (app) => {
    app.get('/api/auth/sso', { config: { public: true }, schema: { response: { 200: ssoStatusSchema } } }, async () => ssoStatus(deps.db, deps.config));

    app.get('/api/auth/sso/start', { config: { public: true, rateLimit: limit } }, async (req, reply) => {
      try {
        const { url, sealed } = await beginSsoSignIn(deps.config, deps.cipher, `${base(req)}${CALLBACK_PATH}`, deps.clock);
        // SameSite=Lax: the provider's redirect back is a top-level GET, which carries it.
        reply.setCookie(PENDING_COOKIE, sealed, { path: CALLBACK_PATH, httpOnly: true, sameSite: 'lax', secure: secure(req), maxAge: 600 });
        return reply.redirect(url);
      } catch (err) {
        return refuse(reply, err);
      }
    });

    app.get(CALLBACK_PATH, { config: { public: true, rateLimit: limit } }, async (req, reply) => {
      const sealed = req.cookies[PENDING_COOKIE];
      // Used once, whatever happens.
      reply.clearCookie(PENDING_COOKIE, { path: CALLBACK_PATH });
      try {
        const { token } = await completeSsoSignIn(
          deps.db,
          deps.config,
          deps.cipher,
          new URL(req.url, 'http://callback.invalid'),
          sealed,
          meta(req),
          deps.clock,
        );
        reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure(req) });
        return reply.redirect('/');
      } catch (err) {
        return refuse(reply, err);
      }
    });
  };
}
