import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createFieldCipher } from '../lib/field-cipher.ts';
import { createTestDatabase } from '../test/helpers.ts';
import { REQUEST_TIMEOUTS } from './request-timeouts.ts';

/**
 * Request bodies that trickled once stayed open forever. A real socket on 127.0.0.1 sends a
 * request a little at a time; the server must cut it off. The app runs with the production
 * mechanism and shorter figures, so the test takes seconds, not minutes.
 */
const SHORT = { headersMs: 600, requestMs: 6000, bodyBaseMs: 500, bodyMinBytesPerSecond: 2000, bodyMaxBytes: 2000, idleMs: 60_000, checkEveryMs: 100 };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  database = await createTestDatabase();
  const config = { ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: database.url };
  app = await buildApp(
    { db: database.db, config, cipher: createFieldCipher(randomBytes(32)) },
    { webRoot: '/nonexistent', timeouts: SHORT, logger: process.env.TEST_LOG ? { level: 'debug' } : false },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

type Outcome = { answer: string; closedAfterMs: number | null };

/**
 * Open a socket, send `head`, then `trickle` one piece every `everyMs`, and stop after `giveUpMs`.
 * Returns what the server answered and when it closed the connection (null: it never did).
 */
function trickle(head: string, pieces: string[], everyMs: number, giveUpMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedAfterMs: number | null) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ answer, closedAfterMs });
    };
    const giveUp = setTimeout(() => finish(null), giveUpMs);
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('close', () => finish(Date.now() - started));
    socket.on('error', () => {});
    socket.on('connect', () => {
      socket.write(head);
      let i = 0;
      timer = setInterval(() => {
        if (i < pieces.length && !socket.destroyed) socket.write(pieces[i++]!);
      }, everyMs);
    });
  });
}

const body = (n: number) => JSON.stringify({ email: 'nobody@example.edu', password: 'x'.repeat(Math.max(0, n - 45)) });
const post = (length: number | null) =>
  `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n${length == null ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\n\r\n`;
const chunks = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

describe('requests that trickle are cut off', () => {
  it('a body sent a byte at a time gets 408 and its connection closed once its deadline passes', async () => {
    const text = body(200); // deadline 500 ms + 200 B at 2,000 B/s = 600 ms; at 1 B / 50 ms it would take 10 s
    const out = await trickle(post(text.length), [...text], 50, 5000);
    expect(out.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(out.answer).toContain('REQUEST_TIMEOUT');
    expect(out.closedAfterMs).not.toBeNull();
    expect(out.closedAfterMs!).toBeLessThan(1500);
  });

  it('a chunked body with no declared length gets the deadline of the largest body', async () => {
    const text = body(200);
    const pieces = chunks(text, 1).map((c) => `1\r\n${c}\r\n`);
    const out = await trickle(post(null), pieces, 100, 5000); // 500 ms + 2,000 B at 2,000 B/s = 1.5 s
    expect(out.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(out.closedAfterMs!).toBeGreaterThan(1300);
    expect(out.closedAfterMs!).toBeLessThan(2500);
  });

  it('headers sent a byte at a time are cut off by the headers timeout', async () => {
    const out = await trickle('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', [...('X-Slow: ' + 'a'.repeat(100))], 50, 5000);
    expect(out.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(out.closedAfterMs!).toBeLessThan(1500);
  });

  it('a slow but steady body within its deadline goes through', async () => {
    const text = body(900); // deadline 500 ms + 0.45 s; sent in 0.6 s
    const out = await trickle(post(text.length), chunks(text, 150), 100, 5000);
    expect(out.answer).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('the server still answers afterwards', async () => {
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('the real figures let a 10 MB upload through at 16 KB/s and give small bodies 30 s', () => {
    const t = REQUEST_TIMEOUTS;
    const tenMb = 10 * 1024 * 1024;
    const uploadDeadline = t.bodyBaseMs + (tenMb / t.bodyMinBytesPerSecond) * 1000;
    expect(uploadDeadline).toBeLessThanOrEqual(t.requestMs);
    expect((tenMb / (16 * 1024)) * 1000).toBeLessThan(uploadDeadline);
    expect(t.bodyBaseMs + (500 / t.bodyMinBytesPerSecond) * 1000).toBeLessThan(31_000);
    expect(t.headersMs).toBeLessThanOrEqual(30_000);
  });
});
