import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { asHeavyWork, interactiveStarted } from '../lib/give-way.ts';

/**
 * Reads that compute clock-hour ledgers (hours, compliance, reports, time cards) cost memory and
 * CPU in this process in proportion to the students they cover. However each one is bounded, many
 * at once could still exhaust the heap (decision 038: sixteen far-future reads ran the process out of
 * memory). A route declares `config: { heavy: true }`; then each signed-in user runs at most
 * `perUser` such reads at a time, with at most `perUserWaiting` more waiting their turn (a screen
 * asks for two or three at once; more is a script: 429), and the process runs at most
 * `perInstance`, with at most `queue` waiting (more: 503). The limits are per process on purpose:
 * what they protect is this process's heap; several instances each protect their own.
 */
export type HeavyReadLimits = { perUser: number; perUserWaiting: number; perInstance: number; queue: number };
const HEAVY_READ_LIMITS: HeavyReadLimits = { perUser: 2, perUserWaiting: 4, perInstance: 4, queue: 32 };
const RETRY_AFTER_SECONDS = 5;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route computes ledgers: its calls are limited per user and per process (plugins/heavy-reads.ts). */
    heavy?: boolean;
  }
}

type HeavyReadGate = {
  /** Wait for a turn; the answer releases it (exactly once, however often it is called). */
  enter: (who: string) => Promise<() => void>;
  /** Reads running and waiting now (for tests and the system status). */
  load: () => { running: number; waiting: number };
};

/** Turns handed out in order: a finished holder passes its turn straight to the next waiting one. */
class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly max: number) {}
  get active() {
    return this.running;
  }
  get queued() {
    return this.waiting.length;
  }
  take(): Promise<void> {
    if (this.running < this.max) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

export function createHeavyReadGate(limits: HeavyReadLimits = HEAVY_READ_LIMITS): HeavyReadGate {
  const perWho = new Map<string, { turns: Turns; count: number }>();
  const instance = new Turns(limits.perInstance);

  return {
    load: () => ({ running: instance.active, waiting: instance.queued }),
    enter: async (who) => {
      const mine = perWho.get(who) ?? { turns: new Turns(limits.perUser), count: 0 };
      if (mine.count >= limits.perUser + limits.perUserWaiting) {
        throw new AppError(429, 'TOO_MANY_REPORTS', `You already have ${mine.count} reports being prepared; wait for them to finish, then try again`, {
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        });
      }
      if (instance.active >= limits.perInstance && instance.queued >= limits.queue) {
        throw new AppError(503, 'BUSY', 'The server is busy preparing reports for others; try again in a few seconds', {
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        });
      }
      mine.count++;
      perWho.set(who, mine);
      await mine.turns.take();
      await instance.take();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        instance.give();
        mine.turns.give();
        if (--mine.count === 0) perWho.delete(who);
      };
    },
  };
}

/**
 * Wraps each heavy route's handler in the gate. The turn is held until the work is over: a handler
 * that answered with a value, at once; one that sent a stream (CSV exports), until the response
 * closes, which is also when the stream stops reading the database if the client went away.
 */
export function registerHeavyReads(app: FastifyInstance, gate: HeavyReadGate = createHeavyReadGate()): void {
  // Every other route's answer is awaited by someone: heavy work gives way while it is prepared
  // (lib/give-way.ts), from its handler's start (a slow upload's body does not count) to its end.
  app.addHook('preHandler', (req, reply, done) => {
    if (!req.routeOptions.config?.heavy) {
      const finished = interactiveStarted();
      reply.raw.once('finish', finished);
      reply.raw.once('close', finished);
    }
    done();
  });
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!(route.config as { heavy?: boolean } | undefined)?.heavy) return;
    const handler = route.handler as (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) => unknown;
    const gated = async function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
      const who = req.user ? `user:${req.user.id}` : `ip:${req.ip}`;
      const release = await gate.enter(who).catch((err: unknown) => {
        const retry = err instanceof AppError ? err.details?.retryAfterSeconds : undefined;
        if (typeof retry === 'number') reply.header('retry-after', String(retry));
        throw err;
      });
      let result: unknown;
      try {
        // Heavy work: its slices give way to the requests being answered meanwhile (lib/give-way.ts).
        result = await asHeavyWork(() => handler.call(this, req, reply));
      } catch (err) {
        release();
        throw err;
      }
      if (result === reply || result instanceof Readable) {
        reply.raw.once('close', release);
        if (result instanceof Readable) result.once('close', release);
        if (reply.raw.destroyed || reply.raw.writableFinished) release();
      } else release();
      return result;
    };
    route.handler = gated as RouteHandlerMethod;
  });
}
