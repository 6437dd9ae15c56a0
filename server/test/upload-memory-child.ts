/**
 * Run by file-limits.test.ts in a process of its own, shaped like the server (the whole app, one
 * database pool, nothing else): sign in, upload one file through the API, report the answer and
 * the process's memory, over a real socket. `node --import tsx upload-memory-child.ts <databaseUrl> <file> <type>`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createDb } from '../db/client.ts';
import { createFieldCipher } from '../lib/field-cipher.ts';
import { insertUser } from '../modules/auth/service.ts';

const [url, file, type] = process.argv.slice(2) as [string, string, string];
const db = createDb(url, 5);
const app = await buildApp(
  { db, config: { ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: url }, cipher: createFieldCipher(randomBytes(32)) },
  { webRoot: '/nonexistent' },
);
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const email = `mem.${randomBytes(4).toString('hex')}@example.edu`;
await insertUser(db, { email, password: 'correct horse battery', role: 'it_admin', firstName: 'Mem', lastName: 'Test' });
const login = await fetch(`${base}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email, password: 'correct horse battery' }),
});
const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const baselineMb = mb(process.memoryUsage().rss);
const form = new FormData();
form.append('file', new Blob([fs.readFileSync(file)]), path.basename(file));
const res = await fetch(`${base}/api/upload/${type}`, { method: 'POST', headers: { cookie }, body: form });
const answer = (await res.json()) as { errors?: { message: string }[]; message?: string };
const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(JSON.stringify({ status: res.status, message: answer.errors?.[0]?.message ?? answer.message ?? '', baselineMb, peakMb }) + '\n');
await app.close();
await db.$client.end();
