import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Clock } from './lib/clock.ts';
import type { FieldCipher } from './lib/field-cipher.ts';
import type { ResponseTimes } from './plugins/response-times.ts';

// What buildApp hands every module's routes. Its own file, so modules never import app.ts (which
// imports them): the server's import graph stays free of cycles.
export type AppDeps = {
  db: Db;
  config: Config;
  clock: Clock;
  cipher: FieldCipher;
  responseTimes: ResponseTimes;
  /** This instance's identity among the running ones (lib/instance-presence.ts); null in tests. */
  instanceId: () => string | null;
};
