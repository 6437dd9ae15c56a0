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
  };
}
