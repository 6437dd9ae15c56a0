import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const boolFromEnv = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  // Port for the embedded PostgreSQL; if taken, a free one is chosen. Never 5432 by default.
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  // Base URL printed into QR codes; default: taken from the request's Host header.
  PUBLIC_URL: z.string().url().optional(),
  // Set when the app is served over HTTPS (directly or behind a proxy) so cookies are Secure.
  COOKIE_SECURE: boolFromEnv.optional(),
  // Which reverse proxies may say who the client is (X-Forwarded-For, -Proto): docs/decisions/035.
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  // 32-byte key (hex or base64) for encrypting SSNs; generated into DATA_DIR when absent.
  ENCRYPTION_KEY: z.string().optional(),
  // Outgoing e-mail (decision 017): smtp://user:pass@host:587 or smtps://…; without it nothing is sent.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  SMTP_FROM: z.string().optional(),
  // SMS, Twilio-compatible: the Messages endpoint (POST To, From, Body; HTTP basic credentials).
  SMS_API_URL: z.string().url().optional(),
  SMS_USERNAME: z.string().optional(),
  SMS_PASSWORD: z.string().optional(),
  SMS_FROM: z.string().optional(),
  // Single sign-on (OpenID Connect); all three turn it on.
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_DISPLAY_NAME: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().default('development'),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  publicUrl: string | undefined;
  cookieSecure: boolean | undefined;
  /** Fastify's trustProxy: the proxies' addresses, CIDR ranges or named ranges; false trusts no one. */
  trustProxy: string[] | false;
  encryptionKey: string | undefined;
  logLevel: string;
  production: boolean;
  smtp: { url: string; from: string } | null;
  sms: { apiUrl: string; username: string; password: string; from: string } | null;
  oidc: { issuer: string; clientId: string; clientSecret: string; displayName: string | null } | null;
};

/** Parse the environment once; fail fast with every problem named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    publicUrl: e.PUBLIC_URL,
    cookieSecure: e.COOKIE_SECURE,
    trustProxy: e.TRUST_PROXY,
    encryptionKey: e.ENCRYPTION_KEY,
    logLevel: e.LOG_LEVEL,
    production: e.NODE_ENV === 'production',
    smtp: e.SMTP_URL ? { url: e.SMTP_URL, from: e.SMTP_FROM ?? defaultSender(e.SMTP_URL) } : null,
    sms:
      e.SMS_API_URL && e.SMS_USERNAME && e.SMS_PASSWORD && e.SMS_FROM
        ? { apiUrl: e.SMS_API_URL, username: e.SMS_USERNAME, password: e.SMS_PASSWORD, from: e.SMS_FROM }
        : null,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, displayName: e.OIDC_DISPLAY_NAME ?? null }
        : null,
  };
}

/** The named ranges Fastify's trustProxy (proxy-addr) knows. */
const NAMED_PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const TRUST_NOBODY = new Set(['', 'false', '0', 'no', 'off']);
const TRUST_EVERYBODY = new Set(['true', '1', 'yes', 'on']);
const NAME_THE_PROXY = "TRUST_PROXY=loopback for a proxy on this machine, or the proxy's address (TRUST_PROXY=10.0.0.5)";

/**
 * TRUST_PROXY → Fastify's trustProxy, or a one-line reason it is refused. Only the proxies named
 * are believed about the client's address and protocol; "trust every hop" (true) and a hop count
 * (which Fastify 5 ignores, trusting no one) are refused, each saying what to write instead.
 */
function parseTrustProxy(value: string | undefined): string[] | false | string {
  const raw = (value ?? '').trim();
  const lower = raw.toLowerCase();
  if (TRUST_NOBODY.has(lower)) return false;
  if (TRUST_EVERYBODY.has(lower)) {
    return `"${raw}" would let any client forge its address; name the proxy instead: ${NAME_THE_PROXY}`;
  }
  if (/^\d+$/.test(raw)) return `a hop count ("${raw}") is not supported; name the proxy instead: ${NAME_THE_PROXY}`;
  const entries = lower
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  for (const entry of entries) {
    if (!validProxyEntry(entry)) {
      return `"${entry}" is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or one of loopback, linklocal, uniquelocal`;
    }
  }
  return entries.length > 0 ? entries : false;
}

function validProxyEntry(entry: string): boolean {
  if (NAMED_PROXY_RANGES.has(entry)) return true;
  const slash = entry.lastIndexOf('/');
  const family = isIP(slash === -1 ? entry : entry.slice(0, slash));
  if (family === 0) return false;
  if (slash === -1) return true;
  const prefix = entry.slice(slash + 1);
  // A /0 would trust everyone; proxy-addr refuses it too.
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Without SMTP_FROM: muster@ the SMTP server's domain, so a message never goes out without a sender. */
function defaultSender(smtpUrl: string): string {
  const host = new URL(smtpUrl).hostname;
  return `Muster <muster@${host.split('.').slice(-2).join('.') || 'localhost'}>`;
}
