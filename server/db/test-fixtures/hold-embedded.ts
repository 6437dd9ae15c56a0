// Test fixture: start the embedded server as the app would, write a row, print READY, then wait
// to be killed (embedded.test.ts kills it with SIGKILL to simulate a crash).
import pg from 'pg';
import { startEmbeddedDatabase } from '../embedded.ts';

const dataDir = process.argv[2]!;
const db = await startEmbeddedDatabase({ dataDir, preferredPort: 56100, role: 'app', log: () => {} }).catch((err: Error) => {
  console.log(`start failed: ${err.message}`);
  process.exit(1);
});
const client = new pg.Client({ connectionString: db.url });
await client.connect();
await client.query('create table if not exists crash_probe (v text)');
await client.query("insert into crash_probe values ('committed before the crash')");
await client.end();
console.log('READY');
setInterval(() => {}, 1000);
