import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  currentUserSchema,
  endedSessionsSchema,
  loginSchema,
  isSignInFormRefusal,
  loginSessionSchema,
  passwordChangeSchema,
  recoveryCodesSchema,
  sessionRefParam,
  stepDoneSchema,
  totpCodeSchema,
  totpEnrolmentSchema,
  setupSchema,
  setupStatusSchema,
} from '../../../common/auth.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { SESSION_COOKIE, endLoginSession } from '../../plugins/login-sessions.ts';
import { AppError } from '../../lib/errors.ts';
import { acceptFormPosts } from '../../lib/form-body.ts';
import { cameFromThisSite } from '../../lib/same-origin.ts';
import {
  DEVICE_COOKIE,
  DEVICE_COOKIE_MAX_AGE_SECONDS,
  changeOwnPassword,
  confirmTotpEnrolment,
  resetTwoFactor,
  startTotpEnrolment,
  verifySecondFactor,
  ssoButtonLabel,
  endOtherOwnSessions,
  endOwnSession,
  listOwnSessions,
  setupFirstAdmin,
  signIn,
  userCount,
} from './service.ts';

const okSchema = z.object({ ok: z.literal(true) });

/** Where a cross-site GET /api/logout lands: a page that asks before signing out. */
const SIGN_OUT_CONFIRM_PATH = '/sign-out';

/**
 * Whether a GET came from this site's own pages or from the user (a typed address, a bookmark):
 * Sec-Fetch-Site says so in current browsers; otherwise an Origin or Referer naming this host.
 * A link or image on another site is neither, so it cannot sign anyone out.
 */
const isSameOriginNavigation = (req: FastifyRequest) => cameFromThisSite(req, { typedAddress: true });

export function authRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const secureCookie = (req: FastifyRequest) => deps.config.cookieSecure ?? req.protocol === 'https';
  const setSessionCookie = (req: FastifyRequest, reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookie(req) });
  // Sent only to the sign-in routes, which are the only ones that read it.
  const setDeviceCookie = (req: FastifyRequest, reply: FastifyReply, value: string) =>
    reply.setCookie(DEVICE_COOKIE, value, {
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookie(req),
      maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
    });
  const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent']?.slice(0, 300) ?? null });
  // A flood guard only, far above a campus's sign-ins; the real limits are per account and address
  // (sign-in-throttle.ts). A browser with a device cookie counts on its own, so another browser's
  // flood from the same address cannot keep it out.
  const floodGuard = {
    max: 120,
    timeWindow: '1 minute',
    keyGenerator: (req: FastifyRequest) => {
      const device = req.cookies[DEVICE_COOKIE];
      return device ? `${req.ip}:${createHash('sha256').update(device).digest('hex').slice(0, 16)}` : req.ip;
    },
  };
  const setupLimit = { max: 20, timeWindow: '1 minute' };
  /** A password sign-in (the JSON route and the plain form alike): throttles, audit, then the session and device cookies. */
  const signInWithPassword = async (req: FastifyRequest, reply: FastifyReply, credentials: { email: string; password: string }) => {
    const { token, deviceCookie } = await signIn(
      deps.db,
      credentials.email,
      credentials.password,
      { ...meta(req), deviceCookie: req.cookies[DEVICE_COOKIE] },
      deps.clock,
      {
        configured: deps.config.oidc != null,
        buttonLabel: deps.config.oidc ? await ssoButtonLabel(deps.db, deps.config) : null,
      },
    );
    setSessionCookie(req, reply, token);
    setDeviceCookie(req, reply, deviceCookie);
  };

  return async (app) => {
    app.get('/api/setup/status', { config: { public: true }, schema: { response: { 200: setupStatusSchema } } }, async () => ({
      needsSetup: (await userCount(deps.db)) === 0,
    }));

    app.post(
      '/api/setup',
      { config: { public: true, rateLimit: setupLimit }, schema: { body: setupSchema, response: { 201: currentUserSchema } } },
      async (req, reply) => {
        const { token, userId } = await setupFirstAdmin(deps.db, req.body, meta(req), deps.clock);
        setSessionCookie(req, reply, token);
        return reply
          .status(201)
          .send({ id: userId, firstName: req.body.firstName, lastName: req.body.lastName, email: req.body.email, role: 'super_admin' as const });
      },
    );

    app.post(
      '/api/auth/login',
      { config: { public: true, rateLimit: floodGuard }, schema: { body: loginSchema, response: { 200: okSchema } } },
      async (req, reply) => {
        await signInWithPassword(req, reply, req.body);
        return { ok: true as const };
      },
    );

    // The sign-in form as a plain form post: login.html is drawn before the app's script arrives,
    // and a person may press Sign In before it has. Same checks and limits as /api/auth/login; the
    // answer is a redirect, with the refusal's code (never its text) in the address.
    await app.register(async (forms) => {
      acceptFormPosts(forms);
      forms.post(
        '/api/auth/login-form',
        {
          config: { public: true, rateLimit: floodGuard },
          schema: { body: z.object({ email: z.string().max(1000).optional(), password: z.string().max(1000).optional() }) },
        },
        async (req, reply) => {
          if (!cameFromThisSite(req)) return reply.status(403).send({ message: 'A sign-in from another site is refused.', code: 'CROSS_SITE_FORM' });
          const refused = (code: string) => reply.redirect(`/login?signin_error=${isSignInFormRefusal(code) ? code : 'INVALID_CREDENTIALS'}`, 303);
          const parsed = loginSchema.safeParse(req.body);
          if (!parsed.success) return refused('VALIDATION_ERROR');
          try {
            await signInWithPassword(req, reply, parsed.data);
            return reply.redirect('/', 303);
          } catch (err) {
            if (err instanceof AppError && err.statusCode < 500) return refused(err.code);
            throw err;
          }
        },
      );
    });

    app.get('/api/auth/user', { config: { signedIn: true, signInStep: 'any' }, schema: { response: { 200: currentUserSchema } } }, async (req) => ({
      ...req.user!,
      // Only while a step is owed: a complete sign-in answers SPEC's fields exactly.
      ...(req.pendingStep ? { pendingStep: req.pendingStep } : {}),
    }));

    // Sign-in steps (decision 018): a new password, then two-factor enrolment or a code.
    const signedIn = (req: FastifyRequest) => ({ userId: req.user!.id, sessionId: req.loginSessionId!, pendingStep: req.pendingStep });
    const stepLimit = { max: 30, timeWindow: '1 minute' };
    app.post(
      '/api/auth/password',
      {
        config: { signedIn: true, signInStep: 'password_change', rateLimit: stepLimit },
        schema: { body: passwordChangeSchema, response: { 200: stepDoneSchema } },
      },
      async (req) => changeOwnPassword(deps.db, signedIn(req), req.body, meta(req), deps.clock),
    );
    app.post(
      '/api/auth/two-factor/enrolment',
      { config: { signedIn: true, signInStep: 'totp_enrol', rateLimit: stepLimit }, schema: { response: { 200: totpEnrolmentSchema } } },
      async (req) => startTotpEnrolment(deps.db, deps.cipher, signedIn(req), deps.clock),
    );
    app.post(
      '/api/auth/two-factor/enrolment/confirm',
      { config: { signedIn: true, signInStep: 'totp_enrol', rateLimit: stepLimit }, schema: { body: totpCodeSchema, response: { 200: recoveryCodesSchema } } },
      async (req) => confirmTotpEnrolment(deps.db, deps.cipher, signedIn(req), req.body.code, meta(req), deps.clock),
    );
    app.post(
      '/api/auth/two-factor/verify',
      { config: { signedIn: true, signInStep: 'totp', rateLimit: stepLimit }, schema: { body: totpCodeSchema, response: { 200: stepDoneSchema } } },
      async (req) => verifySecondFactor(deps.db, deps.cipher, signedIn(req), req.body.code, meta(req), deps.clock),
    );
    app.post(
      '/api/users/:id/two-factor/reset',
      { config: { action: 'users:reset-two-factor' }, schema: { params: idParam, response: { 200: okSchema } } },
      async (req) => {
        await resetTwoFactor(deps.db, req.user!, req.params.id, meta(req), deps.clock);
        return { ok: true as const };
      },
    );

    // Your sessions: every signed-in user sees and ends their own, and only their own.
    app.get('/api/auth/sessions', { config: { signedIn: true }, schema: { response: { 200: z.array(loginSessionSchema) } } }, async (req) =>
      listOwnSessions(deps.db, req.user!.id, req.loginSessionId, deps.clock),
    );
    app.delete(
      '/api/auth/sessions/:id',
      { config: { signedIn: true }, schema: { params: sessionRefParam, response: { 200: okSchema } } },
      async (req, reply) => {
        const { wasCurrent } = await endOwnSession(deps.db, req.user!.id, req.loginSessionId, req.params.id, meta(req), deps.clock);
        if (wasCurrent) reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return { ok: true as const };
      },
    );
    app.post('/api/auth/sessions/end-others', { config: { signedIn: true }, schema: { response: { 200: endedSessionsSchema } } }, async (req) =>
      endOtherOwnSessions(deps.db, req.user!.id, req.loginSessionId!, meta(req), deps.clock),
    );

    // The sign-in page is part of the web app; first run goes to the setup page instead.
    app.get('/api/login', { config: { public: true } }, async (_req, reply) => reply.redirect((await userCount(deps.db)) === 0 ? '/setup' : '/login'));

    const logout = async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.loginSessionId) await endLoginSession(deps.db, req.loginSessionId, deps.clock);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
    };
    // SPEC §2: Sign Out navigates here. Only a navigation from Muster's own pages (or typed by the
    // user) signs out; a link or image elsewhere lands on a page that asks first.
    app.get('/api/logout', { config: { public: true } }, async (req, reply) => {
      if (req.loginSessionId && !isSameOriginNavigation(req)) return reply.redirect(SIGN_OUT_CONFIRM_PATH);
      await logout(req, reply);
      return reply.redirect('/');
    });
    app.post('/api/auth/logout', { config: { public: true, signInStep: 'any' }, schema: { response: { 200: okSchema } } }, async (req, reply) => {
      await logout(req, reply);
      return { ok: true as const };
    });
  };
}
