import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A transaction or the database: query functions take either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

// Return DATE columns as 'YYYY-MM-DD' strings, never shifted through a JS Date.
pg.types.setTypeParser(1082, (v) => v);

/** The application_name of the app's connections: `db:restore` looks for them to know the app runs. */
export const APP_CONNECTION_NAME = 'muster-app';

export function createDb(url: string, max = 10, applicationName = 'muster'): Db {
  const pool = new pg.Pool({ connectionString: url, max, application_name: applicationName });
  pool.on('error', () => {
    // An idle client lost its connection (server restart); the pool replaces it.
  });
  return drizzle(pool, { schema }) as Db;
}
