import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { SIGN_IN_STEP_REQUIRED } from '../../common/auth.ts';
import { ACTIONS, can, type Action } from '../../common/permissions.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError, forbidden, unauthorized } from '../lib/errors.ts';
import { isThisHost } from '../lib/same-origin.ts';
import type { Db } from '../db/client.ts';
import { SESSION_COOKIE, resolveLoginSession } from './login-sessions.ts';

/** The code of a refusal by the permission table (per-record refusals use FORBIDDEN). */
export const ROLE_NOT_PERMITTED = 'ROLE_NOT_PERMITTED';

/** Where the API reference is served (server/app.ts). */
export const API_DOCS_PREFIX = '/api/docs';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a route declared: who may call it. `static` is a file of the built web app. */
type Access = 'public' | 'signedIn' | 'static' | Action;

/** Every route with the access it declared; the authorization tests walk this list. */
type RouteAccess = { method: string; url: string; access: Access };

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with the access it declared. */
    apiRoutes: RouteAccess[];
  }
}

type AccessConfig = { action?: string; public?: boolean; signedIn?: boolean; signInStep?: string; file?: unknown; rootPath?: unknown };

/**
 * The access a route declared. Our routes declare exactly one of action, public, signedIn; the
 * only routes allowed to declare nothing are @fastify/static's file routes (it puts the file in
 * their config), which serve the public built web app. Anything else fails at start-up.
 */
function declaredAccess(method: string, url: string, cfg: AccessConfig): Access {
  const declared = [cfg.public, cfg.signedIn, cfg.action].filter(Boolean).length;
  // The API reference (@fastify/swagger-ui registers its own routes, with no way to declare
  // access): pages and the OpenAPI description, no data. Decided from the registered route.
  if (declared === 0 && (url === API_DOCS_PREFIX || url.startsWith(`${API_DOCS_PREFIX}/`))) return 'public';
  if (declared === 0 && typeof cfg.file === 'string' && !url.startsWith('/api')) return 'static';
  if (declared !== 1) throw new Error(`Route ${method} ${url} must declare exactly one of action, public, signedIn`);
  if (cfg.action) {
    if (!(ACTIONS as readonly string[]).includes(cfg.action)) throw new Error(`Unknown action ${cfg.action} on ${method} ${url}`);
    return cfg.action as Action;
  }
  return cfg.public ? 'public' : 'signedIn';
}

function originMatches(req: FastifyRequest): boolean {
  const origin = req.headers.origin ?? req.headers.referer;
  if (!origin) return true; // non-browser clients; SameSite=Lax already keeps cross-site cookies off POSTs
  return isThisHost(origin, req.headers.host);
}

/** The access of the route this request matched, or null when it matched none. */
export function matchedAccess(req: FastifyRequest): Access | null {
  if (!req.routeOptions.url) return null;
  return (req.routeOptions.config as { access?: Access }).access ?? null;
}

/**
 * Decides every request from the route it matched and that route's declared access, never from the
 * raw URL: the router decodes `%61pi` and absolute-form targets, a prefix test on req.url does not.
 */
export function registerAuthorization(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  const apiRoutes: RouteAccess[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.decorateRequest('user', null);
  app.decorateRequest('loginSessionId', null);
  app.decorateRequest('pendingStep', null);

  app.addHook('onRoute', (route: RouteOptions) => {
    const cfg = (route.config ?? {}) as AccessConfig;
    const methods = [route.method].flat();
    const access = declaredAccess(methods.join(','), route.url, cfg);
    // The resolved access travels with the route; the onRequest hook reads only this.
    route.config = { ...route.config, access } as RouteOptions['config'];
    if (access === 'static') return;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      apiRoutes.push({ method, url: route.url, access });
    }
  });

  // onRequest runs before the body is parsed or validated: a caller without the right learns nothing.
  app.addHook('onRequest', async (req) => {
    const access = matchedAccess(req);
    // No route matched: the not-found handler answers 404 without reading anything.
    if (access === null || access === 'static') return;
    const token = req.cookies[SESSION_COOKIE];
    if (token) {
      const found = await resolveLoginSession(deps.db, token, deps.clock);
      if (found) {
        req.user = found.user;
        req.loginSessionId = found.sessionId;
        req.pendingStep = found.pendingStep;
      }
    }
    if (!SAFE_METHODS.has(req.method) && !originMatches(req)) throw forbidden('Cross-site request refused');
    if (access === 'public') return;
    if (!req.user) throw unauthorized();
    // A sign-in that owes a step (new password, two-factor) reaches only that step's routes.
    if (req.pendingStep) {
      const allowed = (req.routeOptions.config as { signInStep?: string }).signInStep;
      if (allowed !== 'any' && allowed !== req.pendingStep) {
        throw new AppError(403, SIGN_IN_STEP_REQUIRED, 'Finish signing in first', { step: req.pendingStep });
      }
    }
    if (access === 'signedIn') return;
    if (!can(req.user.role, access)) throw new AppError(403, ROLE_NOT_PERMITTED, 'Forbidden: your role may not do this');
  });
}
