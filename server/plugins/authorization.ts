import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACTIONS, can } from '../../common/permissions.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError, forbidden, unauthorized } from '../lib/errors.ts';

/** The code of a refusal by the permission table (per-record refusals use FORBIDDEN). */
export const ROLE_NOT_PERMITTED = 'ROLE_NOT_PERMITTED';
import type { Db } from '../db/client.ts';
import { SESSION_COOKIE, resolveLoginSession } from '../modules/auth/sessions.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Every /api route must say who may call it; a route without a declaration fails at start-up. */
export type RouteAccess = { method: string; url: string; access: 'public' | 'signedIn' | string };

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with the access it declared; the authorization test walks this list. */
    apiRoutes: RouteAccess[];
  }
}

function originMatches(req: FastifyRequest): boolean {
  const origin = req.headers.origin ?? req.headers.referer;
  if (!origin) return true; // non-browser clients; SameSite=Lax already keeps cross-site cookies off POSTs
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

export function registerAuthorization(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  const apiRoutes: RouteAccess[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.decorateRequest('user', null);
  app.decorateRequest('loginSessionId', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    const cfg = (route.config ?? {}) as { action?: string; public?: boolean; signedIn?: boolean };
    const declared = [cfg.public, cfg.signedIn, cfg.action].filter(Boolean).length;
    if (declared !== 1) throw new Error(`Route ${route.method} ${route.url} must declare exactly one of action, public, signedIn`);
    if (cfg.action && !(ACTIONS as readonly string[]).includes(cfg.action)) throw new Error(`Unknown action ${cfg.action} on ${route.url}`);
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      apiRoutes.push({ method, url: route.url, access: cfg.public ? 'public' : cfg.signedIn ? 'signedIn' : cfg.action! });
    }
  });

  // onRequest runs before the body is parsed or validated: a caller without the right learns nothing.
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    const token = req.cookies[SESSION_COOKIE];
    if (token) {
      const found = await resolveLoginSession(deps.db, token, deps.clock);
      if (found) {
        req.user = found.user;
        req.loginSessionId = found.sessionId;
      }
    }
    const cfg = req.routeOptions.config as { action?: (typeof ACTIONS)[number]; public?: boolean; signedIn?: boolean };
    if (!req.routeOptions.url) return; // unknown route: the not-found handler answers 404
    if (!SAFE_METHODS.has(req.method) && !originMatches(req)) throw forbidden('Cross-site request refused');
    if (cfg.public) return;
    if (!req.user) throw unauthorized();
    if (cfg.signedIn) return;
    if (!cfg.action || !can(req.user.role, cfg.action)) throw new AppError(403, ROLE_NOT_PERMITTED, 'Forbidden: your role may not do this');
  });
}
