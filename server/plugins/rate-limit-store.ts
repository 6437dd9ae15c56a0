import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { countHit, readHits } from '../lib/shared-counters.ts';

import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;
type RouteOptions = { routeInfo?: { method?: string | string[]; url?: string } };

/**
 * A @fastify/rate-limit store backed by PostgreSQL: limits hold across app instances. Each route
 * counts on its own (its method and URL pattern prefix the key), as the in-memory store did.
 */
export function createRateLimitStore(db: Db, clock: Clock): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    constructor(options: object = {}) {
      const route = (options as RouteOptions).routeInfo;
      this.prefix = route ? `route:${[route.method].flat().join(',')} ${route.url}:` : 'global:';
    }
    incr(key: string, cb: Callback, timeWindow: number): void {
      countHit(db, this.prefix + key, timeWindow, clock.now()).then(
        (c) => cb(null, { current: c.hits, ttl: Math.max(0, c.resetAt.getTime() - clock.now().getTime()) }),
        (err: Error) => cb(err),
      );
    }
    read(key: string, cb: Callback, timeWindow: number): void {
      readHits(db, this.prefix + key, timeWindow, clock.now()).then(
        (c) => cb(null, { current: c.hits, ttl: Math.max(0, c.resetAt.getTime() - clock.now().getTime()) }),
        (err: Error) => cb(err),
      );
    }
    child(routeOptions: object): FastifyRateLimitStore {
      return new PostgresRateLimitStore(routeOptions);
    }
  }
  return PostgresRateLimitStore;
}
