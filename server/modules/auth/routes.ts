import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserSchema, loginSchema, setupSchema, setupStatusSchema } from '../../../common/auth.ts';
import type { AppDeps } from '../../app.ts';
import { SESSION_COOKIE, endLoginSession } from './sessions.ts';
import { setupFirstAdmin, signIn, userCount } from './service.ts';

const okSchema = z.object({ ok: z.literal(true) });

export function authRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const secureCookie = (req: FastifyRequest) => deps.config.cookieSecure ?? req.protocol === 'https';
  const setSessionCookie = (req: FastifyRequest, reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookie(req) });
  const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent']?.slice(0, 300) ?? null });
  const loginLimit = { max: 20, timeWindow: '1 minute' };

  return async (app) => {
    app.get('/api/setup/status', { config: { public: true }, schema: { response: { 200: setupStatusSchema } } }, async () => ({
      needsSetup: (await userCount(deps.db)) === 0,
    }));

    app.post(
      '/api/setup',
      { config: { public: true, rateLimit: loginLimit }, schema: { body: setupSchema, response: { 201: currentUserSchema } } },
      async (req, reply) => {
        const { token, userId } = await setupFirstAdmin(deps.db, req.body, meta(req));
        setSessionCookie(req, reply, token);
        return reply.status(201).send({ id: userId, firstName: req.body.firstName, lastName: req.body.lastName, email: req.body.email, role: 'super_admin' as const });
      },
    );

    app.post(
      '/api/auth/login',
      { config: { public: true, rateLimit: loginLimit }, schema: { body: loginSchema, response: { 200: okSchema } } },
      async (req, reply) => {
        const { token } = await signIn(deps.db, req.body.email, req.body.password, meta(req), deps.clock);
        setSessionCookie(req, reply, token);
        return { ok: true as const };
      },
    );

    app.get('/api/auth/user', { config: { signedIn: true }, schema: { response: { 200: currentUserSchema } } }, async (req) => req.user!);

    // The sign-in page is part of the web app; first run goes to the setup page instead.
    app.get('/api/login', { config: { public: true } }, async (_req, reply) =>
      reply.redirect((await userCount(deps.db)) === 0 ? '/setup' : '/login'),
    );

    const logout = async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.loginSessionId) await endLoginSession(deps.db, req.loginSessionId, deps.clock);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
    };
    app.get('/api/logout', { config: { public: true } }, async (req, reply) => {
      await logout(req, reply);
      return reply.redirect('/');
    });
    app.post('/api/auth/logout', { config: { public: true }, schema: { response: { 200: okSchema } } }, async (req, reply) => {
      await logout(req, reply);
      return { ok: true as const };
    });
  };
}
