import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackHost, networkBaseUrls } from '../../lib/network-addresses.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type TestClass } from '../attendance/test-support.ts';

// A QR code pointing at localhost opens nothing on a phone; the QR answer says so.

describe('isLoopbackHost', () => {
  it('knows localhost, 127.0.0.0/8 and ::1', () => {
    for (const h of ['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['192.168.1.20', '10.0.0.5', 'muster.school.edu', '128.0.0.1', 'localhost.school.edu', '::2']) expect(isLoopbackHost(h), h).toBe(false);
  });

  it('lists non-internal IPv4 addresses with the port', () => {
    const ifaces = {
      lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true, netmask: '255.0.0.0', mac: '', cidr: null }],
      eth0: [
        { address: '192.168.1.20', family: 'IPv4', internal: false, netmask: '255.255.255.0', mac: '', cidr: null },
        { address: 'fe80::1', family: 'IPv6', internal: false, netmask: '', mac: '', cidr: null, scopeid: 1 },
      ],
    } as unknown as Parameters<typeof networkBaseUrls>[2];
    expect(networkBaseUrls('http:', '3000', ifaces)).toEqual(['http://192.168.1.20:3000']);
    expect(networkBaseUrls('https:', '', ifaces)).toEqual(['https://192.168.1.20']);
  });
});

describe('GET /api/qr-sessions/:id/qr-image', () => {
  const clock = fixedClock('2026-03-02T14:00:05Z');
  let t: TestApp;
  let cls: TestClass;
  let sessionId: string;
  beforeAll(async () => {
    t = await createTestApp({ clock });
    cls = await seedClass(t, 1, 'A');
    sessionId = (await cls.startSession()).sessionId;
  });
  afterAll(async () => t?.close());

  const image = (host: string) => t.app.inject({ url: `/api/qr-sessions/${sessionId}/qr-image`, headers: { cookie: cls.instructor.cookie, host } });

  it('says loopback when Muster was opened at localhost, keeping the existing fields', async () => {
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000']) {
      const res = await image(host);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ loopback: true });
      expect(Object.keys(body)).toEqual(expect.arrayContaining(['qrCode', 'attendanceUrl', 'rotatesAt', 'shortCode', 'networkUrls']));
      for (const u of body.networkUrls as string[]) expect(u).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:3000$/);
    }
  });

  it('is not loopback at a network address or name', async () => {
    for (const host of ['192.168.1.20:3000', 'muster.school.edu']) {
      const body = (await image(host)).json();
      expect(body.loopback).toBe(false);
      expect(body.networkUrls).toEqual([]);
    }
  });
});

describe('with PUBLIC_URL set', () => {
  let t: TestApp;
  let cls: TestClass;
  beforeAll(async () => {
    t = await createTestApp({ clock: fixedClock('2026-03-02T14:00:05Z'), config: { publicUrl: 'https://muster.school.edu' } });
    cls = await seedClass(t, 1, 'A');
  });
  afterAll(async () => t?.close());

  it('follows PUBLIC_URL, not the address the page was opened at', async () => {
    const { sessionId } = await cls.startSession();
    const body = (
      await t.app.inject({ url: `/api/qr-sessions/${sessionId}/qr-image`, headers: { cookie: cls.instructor.cookie, host: 'localhost:3000' } })
    ).json();
    expect(body.attendanceUrl.startsWith('https://muster.school.edu/attendance/scan/')).toBe(true);
    expect(body.loopback).toBe(false);
  });
});
