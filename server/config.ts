import path from 'node:path';
import { z } from 'zod';

const boolFromEnv = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

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
  TRUST_PROXY: boolFromEnv.default(false),
  // 32-byte key (hex or base64) for encrypting SSNs; generated into DATA_DIR when absent.
  ENCRYPTION_KEY: z.string().optional(),
  // Outgoing e-mail (issue 14): smtp://user:pass@host:587 or smtps://…; without it nothing is sent.
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
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
  trustProxy: boolean;
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

/** Without SMTP_FROM: muster@ the SMTP server's domain, so a message never goes out without a sender. */
function defaultSender(smtpUrl: string): string {
  const host = new URL(smtpUrl).hostname;
  return `Muster <muster@${host.split('.').slice(-2).join('.') || 'localhost'}>`;
}
