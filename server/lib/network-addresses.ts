import os from 'node:os';

/**
 * True when a URL's host names this computer only (localhost, 127.0.0.0/8, ::1): a QR code
 * pointing there opens the phone's own loopback, never Muster.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (/^::ffff:127\./.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

type Interfaces = ReturnType<typeof os.networkInterfaces>;

/** This machine's addresses a phone on the same network could reach, as base URLs (http://192.168.1.20:3000). */
export function networkBaseUrls(protocol: string, port: string, interfaces: Interfaces = os.networkInterfaces()): string[] {
  const scheme = protocol.replace(/:$/, '');
  const urls = new Set<string>();
  for (const list of Object.values(interfaces)) {
    for (const a of list ?? []) {
      if (a.internal || a.family !== 'IPv4') continue;
      urls.add(`${scheme}://${a.address}${port ? `:${port}` : ''}`);
    }
  }
  return [...urls];
}
