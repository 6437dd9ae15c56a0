import type { LoginPendingStep } from '../../common/auth.ts';
import type { Action } from '../../common/permissions.ts';
import type { Role } from '../../common/roles.ts';

export type SessionUser = {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission a route needs; every /api route declares this or `public: true`. */
    action?: Action;
    /** Reachable without a session (login, setup, health, scan page API). */
    public?: boolean;
    /** Any signed-in user, whatever the role (e.g. GET /api/auth/user). */
    signedIn?: boolean;
    /**
     * Reachable by a sign-in that still owes this step ('any': whatever it owes, e.g. the current
     * user). Every other route refuses such a sign-in.
     */
    signInStep?: LoginPendingStep | 'any';
  }
  interface FastifyRequest {
    user: SessionUser | null;
    loginSessionId: string | null;
    /** The step this request's sign-in still owes, null when complete. */
    pendingStep: LoginPendingStep | null;
  }
}
