import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { setPasswordSchema, userCreatedSchema, userInputSchema, userSchema } from '../../../common/users.ts';
import { idParam } from '../../../common/validation.ts';
import type { AppDeps } from '../../app-deps.ts';
import { createUser, issuePasswordLink, listUsers, redeemPasswordLink, setUserActive, updateUser } from './service.ts';

export function usersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const meta = (req: FastifyRequest) => ({ ip: req.ip, clock: deps.clock });
  const linkFor = (req: FastifyRequest, token: string) => {
    const base = deps.config.publicUrl ?? `${req.protocol}://${req.headers.host}`;
    return `${base.replace(/\/$/, '')}/set-password?token=${encodeURIComponent(token)}`;
  };
  const created = (req: FastifyRequest, r: { user: z.infer<typeof userSchema>; token: string; expiresAt: Date }) => ({
    user: r.user,
    setPasswordUrl: linkFor(req, r.token),
    setPasswordExpiresAt: r.expiresAt.toISOString(),
  });

  return async (app) => {
    app.get('/api/users', { config: { action: 'users:view' }, schema: { response: { 200: z.array(userSchema) } } }, async () => listUsers(deps.db));

    app.post(
      '/api/users',
      { config: { action: 'users:manage' }, schema: { body: userInputSchema, response: { 201: userCreatedSchema } } },
      async (req, reply) => reply.status(201).send(created(req, await createUser(deps.db, req.user!, req.body, meta(req)))),
    );

    app.put(
      '/api/users/:id',
      { config: { action: 'users:manage' }, schema: { params: idParam, body: userInputSchema, response: { 200: userSchema } } },
      async (req) => updateUser(deps.db, req.user!, req.params.id, req.body, meta(req)),
    );

    app.delete('/api/users/:id', { config: { action: 'users:manage' }, schema: { params: idParam, response: { 200: userSchema } } }, async (req) =>
      setUserActive(deps.db, req.user!, req.params.id, false, meta(req)),
    );

    app.post('/api/users/:id/reactivate', { config: { action: 'users:manage' }, schema: { params: idParam, response: { 200: userSchema } } }, async (req) =>
      setUserActive(deps.db, req.user!, req.params.id, true, meta(req)),
    );

    app.post(
      '/api/users/:id/password-link',
      { config: { action: 'users:manage' }, schema: { params: idParam, response: { 200: userCreatedSchema } } },
      async (req) => created(req, await issuePasswordLink(deps.db, req.user!, req.params.id, meta(req))),
    );

    app.post(
      '/api/auth/set-password',
      {
        config: { public: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
        schema: { body: setPasswordSchema, response: { 200: z.object({ ok: z.literal(true) }) } },
      },
      async (req) => {
        await redeemPasswordLink(deps.db, req.body.token, req.body.password, meta(req));
        return { ok: true as const };
      },
    );
  };
}
