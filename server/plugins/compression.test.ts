import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { csvDownloadHeaders, csvFromRows } from '../lib/csv.ts';
import { createFieldCipher } from '../lib/field-cipher.ts';
import { insertUser } from '../modules/auth/service.ts';
import { createTestDatabase, sessionCookie } from '../test/helpers.ts';
import { COMPRESS_THRESHOLD_BYTES, registerCompression } from './compression.ts';
import { registerErrorHandler } from './error-handler.ts';

/**
 * Decision 027: everything the server sends is compressed. A web root laid out as the build lays it
 * (hashed assets, the HTML shell), precompressed by the build's own step, served by the real
 * app: files as the build compressed them, API answers on the fly.
 */
const JS = '/assets/main-Ab12Cd34.js';
const PNG = '/assets/logo-Ef56Gh78.png';
const TINY = '/assets/tiny-Ij90Kl12.txt';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const BR_GZIP = { 'accept-encoding': 'gzip, deflate, br' };

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-compress-'));
const webRoot = path.join(tmp, 'web');
const dataDir = path.join(tmp, 'data');
const page = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>${title}</title>` +
  `<script type="module" crossorigin src="${JS}"></script></head><body><div id="root"></div></body></html>\n`;
// Script-like text with the variety of a real bundle, so the copies are neither tiny nor trivial.
const script = Array.from(
  { length: 800 },
  (_, i) => `export function screen${i}(props){return h("div",{className:"row-${i % 17} p-${i % 5}"},props.label${i},${(i * 7919) % 10007});}\n`,
).join('');
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(4096)]);

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let admin: string;

beforeAll(async () => {
  fs.mkdirSync(path.join(webRoot, 'assets'), { recursive: true });
  fs.mkdirSync(dataDir);
  fs.writeFileSync(path.join(webRoot, 'index.html'), page('Muster'));
  fs.writeFileSync(path.join(webRoot, JS), script);
  fs.writeFileSync(path.join(webRoot, PNG), png);
  fs.writeFileSync(path.join(webRoot, TINY), 'ok');
  await precompressDir(webRoot);

  database = await createTestDatabase();
  const config = { ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: database.url, dataDir };
  app = await buildApp({ db: database.db, config, cipher: createFieldCipher(randomBytes(32)) }, { webRoot });
  await app.ready();
  const email = `admin.${randomBytes(3).toString('hex')}@example.edu`;
  await insertUser(database.db, { email, password: 'correct horse battery', role: 'super_admin', firstName: 'Test', lastName: 'Admin' });
  admin = sessionCookie(await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'correct horse battery' } }));
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => app.inject({ method, url, headers });
const decoded = (res: LightMyRequestResponse): Buffer => {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.rawPayload);
  if (encoding === 'gzip') return zlib.gunzipSync(res.rawPayload);
  expect(encoding).toBeUndefined();
  return res.rawPayload;
};
const varies = (res: LightMyRequestResponse) =>
  String(res.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');

describe('the build step', () => {
  it('writes brotli and gzip copies of text files that come out smaller, and none of images or of what would not shrink', () => {
    const size = (p: string) => fs.statSync(path.join(webRoot, p)).size;
    for (const p of [JS, '/index.html']) {
      expect(size(`${p}.br`)).toBeLessThan(size(`${p}.gz`));
      expect(size(`${p}.gz`)).toBeLessThan(size(p));
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(webRoot, `${p}.br`)))).toEqual(fs.readFileSync(path.join(webRoot, p)));
      expect(zlib.gunzipSync(fs.readFileSync(path.join(webRoot, `${p}.gz`)))).toEqual(fs.readFileSync(path.join(webRoot, p)));
    }
    for (const p of [PNG, TINY]) for (const ext of ['.br', '.gz']) expect(fs.existsSync(path.join(webRoot, p + ext))).toBe(false);
  });
});

describe('hashed assets', () => {
  it('go out as brotli when the client takes brotli and gzip, with Vary and the immutable cache header', async () => {
    const res = await get(JS, BR_GZIP);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(varies(res)).toBe(true);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(script.length / 3);
    expect(decoded(res).toString()).toBe(script);
    // The security headers plugin still sets its headers on every answer.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('go out as gzip to a client that takes only gzip, and as they are to one that names no encoding', async () => {
    const gz = await get(JS, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(varies(gz)).toBe(true);
    expect(gz.headers['cache-control']).toBe(IMMUTABLE);
    expect(decoded(gz).toString()).toBe(script);

    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const plain = await get(JS, headers);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      // Varies all the same, so a shared cache never hands this copy to a brotli client or the reverse.
      expect(varies(plain)).toBe(true);
      expect(plain.headers['cache-control']).toBe(IMMUTABLE);
      expect(plain.body).toBe(script);
    }
    // A client's explicit refusal is honoured.
    expect((await get(JS, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
  });

  it('answers HEAD with the headers of the encoding it would send, and no body', async () => {
    const full = await get(JS, BR_GZIP);
    const head = await get(JS, BR_GZIP, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.headers.etag).toBe(full.headers.etag);
    expect(varies(head)).toBe(true);
    expect(head.rawPayload.length).toBe(0);
  });

  it('answers 304 to a revalidation of the same encoding (If-None-Match, If-Modified-Since), 200 to another encoding', async () => {
    const br = await get(JS, BR_GZIP);
    const gz = await get(JS, { 'accept-encoding': 'gzip' });
    expect(br.headers.etag).toBeTruthy();
    // Each encoding is its own representation, with its own validator.
    expect(br.headers.etag).not.toBe(gz.headers.etag);
    // Same Last-Modified whichever copy is sent: the build gives the copies the file's time.
    expect(br.headers['last-modified']).toBe(gz.headers['last-modified']);

    const byTag = await get(JS, { ...BR_GZIP, 'if-none-match': String(br.headers.etag) });
    expect(byTag.statusCode).toBe(304);
    expect(byTag.rawPayload.length).toBe(0);
    expect(varies(byTag)).toBe(true);
    const byDate = await get(JS, { ...BR_GZIP, 'if-modified-since': String(br.headers['last-modified']) });
    expect(byDate.statusCode).toBe(304);
    expect(byDate.rawPayload.length).toBe(0);

    const otherEncoding = await get(JS, { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) });
    expect(otherEncoding.statusCode).toBe(200);
    expect(decoded(otherEncoding).toString()).toBe(script);
  });

  it('sends images, and text the build could not shrink, as they are', async () => {
    const image = await get(PNG, BR_GZIP);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.headers['cache-control']).toBe(IMMUTABLE);
    expect(image.rawPayload).toEqual(png);

    const tiny = await get(TINY, BR_GZIP);
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('ok');
  });

  it('does not serve the compressed copies at addresses of their own', async () => {
    for (const url of [`${JS}.br`, `${JS}.gz`, '/index.html.br']) {
      const res = await get(url, BR_GZIP);
      // The app's Page Not Found screen, as for any unknown path.
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
  });
});

describe('the HTML shell (the not-found handler)', () => {
  it.each([
    ['/students', 'index.html', 200],
    ['/no-such-page', 'index.html', 404],
  ])('%s: %s compressed, status %i, cache-control no-cache', async (url, file, status) => {
    const original = fs.readFileSync(path.join(webRoot, file), 'utf8');
    const br = await get(url, BR_GZIP);
    expect(br.statusCode).toBe(status);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/html/);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(varies(br)).toBe(true);
    expect(br.headers['content-security-policy']).toContain("script-src 'self'");
    expect(decoded(br).toString()).toBe(original);

    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz).toString()).toBe(original);
    const plain = await get(url);
    expect(plain.statusCode).toBe(status);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toBe(original);

    const head = await get(url, BR_GZIP, 'HEAD');
    expect(head.statusCode).toBe(status);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.rawPayload.length).toBe(0);
  });

  it('revalidates with a 304 (no-cache means: ask every time)', async () => {
    const first = await get('/students', BR_GZIP);
    const again = await get('/students', { ...BR_GZIP, 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['cache-control']).toBe('no-cache');
  });
});

describe('the scan pages (rendered by the server, docs/decisions/028)', () => {
  it.each([
    ['/attendance/scan', 200],
    ['/attendance/scan/42?t=abc', 404],
  ])('%s: compressed as it is sent, status %i, no-store', async (url, status) => {
    const plain = await get(url);
    expect(plain.statusCode).toBe(status);
    expect(plain.headers['content-type']).toMatch(/^text\/html/);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    const br = await get(url, BR_GZIP);
    expect(br.headers['content-encoding']).toBe('br');
    expect(varies(br)).toBe(true);
    expect(br.headers['cache-control']).toBe('no-store');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(decoded(br).toString()).toBe(plain.body);
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz).toString()).toBe(plain.body);
  });
});

describe('API answers, compressed as they are sent', () => {
  it('compresses a large JSON answer (brotli, else gzip), keeps it no-store and its security headers', async () => {
    const plain = await get('/api/docs/json');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(50_000);

    const br = await get('/api/docs/json', BR_GZIP);
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(varies(br)).toBe(true);
    expect(br.headers['cache-control']).toBe('no-store');
    expect(br.headers['x-frame-options']).toBe('DENY');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
    expect(JSON.parse(decoded(br).toString())).toEqual(plain.json());

    const gz = await get('/api/docs/json', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gz).toString())).toEqual(plain.json());

    const head = await get('/api/docs/json', BR_GZIP, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);
  });

  it(`sends a small answer (under ${COMPRESS_THRESHOLD_BYTES} bytes) as it is, errors included`, async () => {
    for (const res of [await get('/api/health', BR_GZIP), await get('/api/students', BR_GZIP), await get('/api/no-such-thing', BR_GZIP)]) {
      expect(res.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect((await get('/api/students', BR_GZIP)).statusCode).toBe(401);
  });

  it('compresses a large error from the error handler and keeps its status and body', async () => {
    const body = JSON.stringify({ reason: 'a mistake', ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`unknownField${i}`, i])) });
    const send = (headers: Record<string, string>) =>
      app.inject({
        method: 'DELETE',
        url: '/api/students/1/withdrawal',
        headers: { cookie: admin, 'content-type': 'application/json', ...headers },
        payload: body,
      });
    const plain = await send({});
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toMatchObject({ code: 'VALIDATION' });
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    const br = await send(BR_GZIP);
    expect(br.statusCode).toBe(400);
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(br).toString())).toEqual(plain.json());
  });

  it('sends a PDF report as it is: PDF is compressed inside already', async () => {
    const res = await app.inject({ url: '/api/reports/monthly-hours?month=2027-01&format=pdf', headers: { cookie: admin, ...BR_GZIP } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('streams a CSV export compressed, chunk by chunk, as an attachment', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const res = await new Promise<{ headers: http.IncomingHttpHeaders; status: number; body: Buffer }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/api/export/attendance', headers: { cookie: admin, 'accept-encoding': 'gzip' } }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve({ headers: r.headers, status: r.statusCode!, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=/);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    const csv = zlib.gunzipSync(res.body).toString();
    expect(csv.replace(/^\uFEFF/, '').split('\n')[0]).toContain('studentId');
  });
});

describe('a streamed export that fails before its first byte', () => {
  // The plugins as the app registers them, and two CSV downloads whose first database read fails.
  let small: FastifyInstance;
  beforeAll(async () => {
    small = Fastify({ logger: false });
    registerErrorHandler(small);
    await registerCompression(small);
    const failing = (err: Error) =>
      async function* rows(): AsyncGenerator<Record<string, unknown>> {
        // The first batch's read fails: no row ever comes, not even the CSV's header line.
        await Promise.resolve();
        if (err) throw err;
        yield { a: 1, b: 2 };
      };
    small.get('/broken.csv', async (_req, reply) =>
      reply.headers(csvDownloadHeaders('broken.csv')).send(csvFromRows(['a', 'b'], failing(new Error('the first batch failed'))())),
    );
    const outOfRange = Object.assign(new Error('date/time field value out of range: "0000-01-01"'), { code: '22008' });
    small.get('/year-zero.csv', async (_req, reply) => reply.headers(csvDownloadHeaders('year-zero.csv')).send(csvFromRows(['a', 'b'], failing(outOfRange)())));
    await small.ready();
  });
  afterAll(() => small?.close());

  it('answers an error the client can read: no content-encoding over a plain body, no file name', async () => {
    for (const [url, status, code] of [
      ['/broken.csv', 500, 'INTERNAL'],
      ['/year-zero.csv', 400, 'VALIDATION'],
    ] as const) {
      for (const headers of [BR_GZIP, { 'accept-encoding': 'gzip' }, {}]) {
        const res = await small.inject({ url, headers });
        expect(res.statusCode, url).toBe(status);
        expect(res.headers['content-encoding'], url).toBeUndefined();
        expect(res.headers['content-disposition'], url).toBeUndefined();
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(decoded(res).toString())).toMatchObject({ code });
      }
    }
  });
});
