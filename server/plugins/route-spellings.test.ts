import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROLES, type Role } from '../../common/roles.ts';
import { createLoginSession } from './login-sessions.ts';
import { createTestApp, insertUserPerRole, type TestApp } from '../test/helpers.ts';

/**
 * The outside review's bypass: `GET /%61pi/users` and `GET http://host/api/users` answered 200 to
 * anyone because access was decided from the raw URL. This walks every registered route, over a
 * real socket (absolute-form request lines cannot be sent any other way), anonymously and as each
 * role, through many spellings of its path, and requires the answer the plain path gets.
 */
let t: TestApp;
let port: number;
let userIds: Record<Role, number>;

beforeAll(async () => {
  t = await createTestApp();
  userIds = await insertUserPerRole(t.db, 'spell.test', 'S');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

// A record id that does not exist, so per-record rules stay out of the way.
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '999999').replace(/\*$/, 'x');

const encodeFirstLetter = (segment: string) => {
  const i = segment.search(/[a-z]/i);
  return i === -1 ? segment : segment.slice(0, i) + '%' + segment.charCodeAt(i).toString(16) + segment.slice(i + 1);
};
const mixCase = (s: string) => s.replace(/[a-z]/gi, (c, i: number) => (i % 2 ? c.toUpperCase() : c.toLowerCase()));

/** Other spellings of one path: each must reach the same route and get the same answer. */
export function spellingsOf(path: string, host: string): Record<string, string> {
  const segments = path.split('/').slice(1);
  const last = segments.length - 1;
  return {
    'percent-encoded first letter (%61pi)': '/' + [encodeFirstLetter(segments[0]!), ...segments.slice(1)].join('/'),
    'percent-encoded upper-case hex in the last segment':
      '/' +
      [
        ...segments.slice(0, last),
        encodeFirstLetter(segments[last]!)
          .toUpperCase()
          .replace(/%([0-9A-F]{2})/, (m) => m),
      ].join('/'),
    'every letter percent-encoded': path.replace(/[a-z]/gi, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()),
    'percent-encoded slashes (%2F)': '/' + segments.join('%2F'),
    'lower-case %2f': '/' + segments.join('%2f'),
    'absolute form': `http://${host}${path}`,
    'absolute form with another host': `http://attacker.example${path}`,
    'absolute form, percent-encoded': `http://${host}/${[encodeFirstLetter(segments[0]!), ...segments.slice(1)].join('/')}`,
    'doubled slashes': '/' + segments.join('//'),
    'leading double slash': '/' + path,
    'trailing slash': path + '/',
    'mixed case': mixCase(path),
    'upper case': path.toUpperCase(),
    'dot segment': '/' + [segments[0], '.', ...segments.slice(1)].join('/'),
    'dot-dot segment': '/' + [segments[0], 'x', '..', ...segments.slice(1)].join('/'),
    'encoded dot segments': '/' + [segments[0], '%2e', 'x', '%2E%2E', ...segments.slice(1)].join('/'),
  };
}

let addressCounter = 0;
/** Each request from its own loopback address, so rate limits and throttles never colour an answer. */
function nextLocalAddress(): string {
  addressCounter += 1;
  return `127.${100 + ((addressCounter >> 16) & 63)}.${(addressCounter >> 8) & 255}.${addressCounter & 255 || 1}`;
}

type Answer = { status: number; code: string | null };

function send(method: string, target: string, cookie: string | null): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: target,
        localAddress: nextLocalAddress(),
        agent: false,
        headers: { host: `127.0.0.1:${port}`, ...(cookie ? { cookie } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let code: string | null = null;
          try {
            code = (JSON.parse(Buffer.concat(chunks).toString()) as { code?: string }).code ?? null;
          } catch {
            // not JSON (a redirect, a CSV): the status says enough
          }
          resolve({ status: res.statusCode ?? 0, code });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function cookieFor(caller: Role | 'anonymous'): Promise<string | null> {
  if (caller === 'anonymous') return null;
  // A fresh session per request: some routes (logout, ending sessions) end the one they are called with.
  return `muster_session=${await createLoginSession(t.db, userIds[caller], { ip: null, userAgent: null })}`;
}

describe('every route answers every spelling of its path as it answers the plain path', () => {
  it('walks routes × spellings × callers', async () => {
    const callers = ['anonymous', ...ROLES] as const;
    const host = `127.0.0.1:${port}`;
    const mismatches: string[] = [];
    let walked = 0;
    for (const route of t.app.apiRoutes) {
      const path = concrete(route.url);
      for (const caller of callers) {
        const plain = await send(route.method, path, await cookieFor(caller));
        if (caller === 'anonymous' && route.access !== 'public') expect(plain.status, `${route.method} ${path}`).toBe(401);
        for (const [name, target] of Object.entries(spellingsOf(path, host))) {
          const answer = await send(route.method, target, await cookieFor(caller));
          walked += 1;
          if (answer.status !== plain.status || answer.code !== plain.code) {
            mismatches.push(`${caller} ${route.method} ${target} (${name}): ${answer.status} ${answer.code}, plain ${plain.status} ${plain.code}`);
          }
        }
      }
    }
    console.log(
      `route spellings: ${t.app.apiRoutes.length} routes × ${Object.keys(spellingsOf('/a/b', host)).length} spellings × ${callers.length} callers = ${walked} requests, ${mismatches.length} mismatches`,
    );
    expect(mismatches.slice(0, 20)).toEqual([]);
  }, 240_000);

  it('the two spellings from the review are refused to an anonymous caller', async () => {
    expect((await send('GET', '/%61pi/users', null)).status).toBe(401);
    expect((await send('GET', `http://127.0.0.1:${port}/api/users`, null)).status).toBe(401);
    expect((await send('GET', '/%61pi/audit-logs', null)).status).toBe(401);
    expect((await send('GET', '/api%2Faudit-logs', null)).status).toBe(401);
  });

  it('a request that matches no route gets 404 without reading anything', async () => {
    const cookie = await cookieFor('super_admin');
    const query = vi.spyOn(t.db.$client, 'query');
    try {
      for (const target of ['/api/nope', '/%61pi/nope', '/api/users/1/nope', 'http://x/api/../../etc/passwd', '/api/%2561pi/users']) {
        const answer = await send('GET', target, cookie);
        expect(answer.status, target).toBe(404);
      }
      expect(query).not.toHaveBeenCalled();
    } finally {
      query.mockRestore();
    }
  });
});
