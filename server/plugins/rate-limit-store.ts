import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { keyedBatcher } from '../lib/batcher.ts';
import { countHit, readHits } from '../lib/shared-counters.ts';

import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;
type RouteOptions = { routeInfo?: { method?: string | string[]; url?: string } };

/**
 * A @fastify/rate-limit store backed by PostgreSQL: limits hold across app instances. Each route
 * counts on its own (its method and URL pattern prefix the key), as the in-memory store did.
 *
 * Hits on one key that arrive while its previous count is being written are added in one statement
 * (a class behind one school address is one key: a hundred upserts of one row would queue on its
 * lock). Each hit still gets its own exact count, as if they had been counted one by one.
 */
export function createRateLimitStore(db: Db, clock: Clock): FastifyRateLimitStoreCtor {
  const hits = keyedBatcher<{ key: string; windowMs: number }, { current: number; ttl: number }>(
    async (_, batch) => {
      const now = clock.now();
      const { key, windowMs } = batch[0]!;
      const c = await countHit(db, key, windowMs, now, batch.length, { relaxed: true });
      const ttl = Math.max(0, c.resetAt.getTime() - now.getTime());
      return batch.map((_, i) => ({ current: c.hits - batch.length + 1 + i, ttl }));
    },
    { maxBatch: 500 },
  );
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    constructor(options: object = {}) {
      const route = (options as RouteOptions).routeInfo;
      this.prefix = route ? `route:${[route.method].flat().join(',')} ${route.url}:` : 'global:';
    }
    incr(key: string, cb: Callback, timeWindow: number): void {
      // The window length is part of the key: one batch counts in one window.
      hits.add(`${timeWindow}|${this.prefix}${key}`, { key: this.prefix + key, windowMs: timeWindow }).then(
        (c) => cb(null, c),
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
