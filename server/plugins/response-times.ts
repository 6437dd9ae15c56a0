import type { FastifyInstance } from 'fastify';
import { matchedAccess } from './authorization.ts';

/**
 * Response times of /api requests over a sliding window, measured by this server (the dashboard's
 * "Avg Response Time, last 5 minutes"). A fixed-size ring: memory stays constant under load.
 */
export type ResponseTimes = {
  record: (ms: number, at?: number) => void;
  average: (windowMs: number, now?: number) => { averageMs: number | null; samples: number };
};

export function createResponseTimes(capacity = 20_000): ResponseTimes {
  const at = new Float64Array(capacity);
  const ms = new Float64Array(capacity);
  let next = 0;
  let size = 0;
  return {
    record(duration, when = Date.now()) {
      at[next] = when;
      ms[next] = duration;
      next = (next + 1) % capacity;
      size = Math.min(size + 1, capacity);
    },
    average(windowMs, now = Date.now()) {
      let sum = 0;
      let n = 0;
      for (let i = 0; i < size; i++) {
        if (now - at[i]! <= windowMs) {
          sum += ms[i]!;
          n += 1;
        }
      }
      return { averageMs: n === 0 ? null : Math.round((sum / n) * 10) / 10, samples: n };
    },
  };
}

export function registerResponseTimes(app: FastifyInstance, times: ResponseTimes): void {
  app.addHook('onResponse', async (req, reply) => {
    const access = matchedAccess(req);
    if (access !== null && access !== 'static') times.record(reply.elapsedTime);
  });
}
