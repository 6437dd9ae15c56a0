import type { Config } from '../config.ts';
import { networkBaseUrls } from './network-addresses.ts';

/**
 * The address links in e-mails and SMS point at. PUBLIC_URL when set; otherwise this machine's
 * network address (a phone can open it on the school's network), never a loopback address.
 */
export function publicBaseUrl(config: Config): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  return networkBaseUrls('http', String(config.port))[0] ?? `http://localhost:${config.port}`;
}
