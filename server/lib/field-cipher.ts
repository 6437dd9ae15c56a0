import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomFillSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { installationFacts } from '../db/schema/security.ts';
import { students } from '../db/schema/students.ts';

/**
 * AES-256-GCM for what Muster seals: SSNs and TOTP secrets at rest, the tokens of unsubscribe links,
 * the single sign-on state cookie. Each purpose has a key of its own, derived with HKDF-SHA256 from
 * the installation's key (ENCRYPTION_KEY or the key file), so a value sealed for one purpose never
 * opens as another: an unsubscribe token cannot be handed in as an SSO state cookie, and neither
 * can any stored SSN or secret.
 *
 * Stored as `v1.<iv>.<tag>.<ciphertext>` in base64url (AES-256-GCM), a 12-byte IV and a 16-byte tag:
 * nothing shorter is accepted (GCM would otherwise check a tag cut to 4 bytes, which is guessable).
 * The format did not change with per-purpose keys; the key is the purpose's.
 *
 * Values sealed before per-purpose keys were sealed with the installation key itself. Only the two
 * purposes whose values sit in the database, SSNs (students.ssn_encrypted) and TOTP secrets
 * (users.totp_secret_encrypted), still open those: when their own key's tag check fails, the
 * installation key is tried. Nothing stored before is lost and nothing has to be migrated. This is
 * safe because:
 * - those two are only ever read from columns the app itself writes, never from a request;
 * - what a request carries (an unsubscribe token in a link, the SSO state in a cookie) opens only
 *   under its own purpose's key, never the installation key: no value sealed before, of whatever
 *   purpose, nor any stored SSN or secret, is accepted there;
 * - GCM's tag makes a try under the wrong key fail, never yield a wrong plaintext;
 * - every new value is sealed under its purpose's key, so old values only become fewer (an SSN is
 *   sealed again when the student is saved, a secret when two-factor is set up again).
 * Unsubscribe links mailed before per-purpose keys therefore no longer work; their page says the
 * link is not valid and points to Settings › Notifications.
 */
export const CIPHER_PURPOSES = ['ssn', 'totp', 'unsubscribe', 'sso-state'] as const;
export type CipherPurpose = (typeof CIPHER_PURPOSES)[number];
/** The purposes whose values sealed before per-purpose keys (with the installation key itself) still open. */
const LEGACY_PURPOSES: readonly CipherPurpose[] = ['ssn', 'totp'];

export type SealingCipher = { encrypt: (plain: string) => string; decrypt: (stored: string) => string };
/**
 * The cipher modules get: `encrypt`/`decrypt` seal SSNs (students, imports, the start-up key check);
 * `for(purpose)` is the cipher of any purpose, SSNs included.
 */
export type FieldCipher = SealingCipher & { for: (purpose: CipherPurpose) => SealingCipher };

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key of one purpose: HKDF-SHA256 of the installation key, with the purpose as its label. */
function purposeKey(key: Buffer, purpose: CipherPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', key, 'muster field cipher', `muster:${purpose}`, 32));
}

function openGcm(key: Buffer, iv: Buffer, tag: Buffer, data: Buffer): string {
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('Malformed ciphertext');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

export function createFieldCipher(key: Buffer): FieldCipher {
  if (key.length !== 32) throw new Error('The encryption key must be 32 bytes');
  // Random IVs drawn from the CSPRNG a few hundred at a time, each used once: one call per SSN
  // cost a third of the encryption time of a 100,000-student import.
  const ivs = Buffer.alloc(IV_BYTES * 256);
  let next = ivs.length;
  const nextIv = () => {
    if (next === ivs.length) {
      randomFillSync(ivs);
      next = 0;
    }
    return ivs.subarray(next, (next += IV_BYTES));
  };
  const sealer = (purpose: CipherPurpose): SealingCipher => {
    const own = purposeKey(key, purpose);
    const legacy = LEGACY_PURPOSES.includes(purpose);
    return {
      encrypt(plain) {
        const iv = nextIv();
        const cipher = createCipheriv('aes-256-gcm', own, iv, { authTagLength: TAG_BYTES });
        const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
        return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${data.toString('base64url')}`;
      },
      decrypt(stored) {
        const parts = stored.split('.');
        const [v, iv, tag, data] = parts;
        if (parts.length !== 4 || v !== 'v1' || !iv || !tag || !data) throw new Error('Unknown ciphertext format');
        const sealed = [Buffer.from(iv, 'base64url'), Buffer.from(tag, 'base64url'), Buffer.from(data, 'base64url')] as const;
        try {
          return openGcm(own, ...sealed);
        } catch (err) {
          if (!legacy) throw err;
          // Sealed before per-purpose keys (see above): SSNs and TOTP secrets, from the database only.
          return openGcm(key, ...sealed);
        }
      },
    };
  };
  const byPurpose = new Map(CIPHER_PURPOSES.map((p) => [p, sealer(p)] as const));
  const ssn = byPurpose.get('ssn')!;
  return { encrypt: ssn.encrypt, decrypt: ssn.decrypt, for: (purpose) => byPurpose.get(purpose)! };
}

/** The key file generated into DATA_DIR when ENCRYPTION_KEY is not set. */
export const keyFilePath = (dataDir: string) => path.join(dataDir, 'encryption-key');

function parseConfiguredKey(configured: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64');
  if (key.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64');
  return key;
}

/** The key this instance has, and where it came from; null when there is none yet (no setting, no file). */
function existingKey(configured: string | undefined, dataDir: string): { key: Buffer; origin: string } | null {
  if (configured) return { key: parseConfiguredKey(configured), origin: 'the ENCRYPTION_KEY setting' };
  const file = keyFilePath(dataDir);
  if (!fs.existsSync(file)) return null;
  return { key: Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex'), origin: `the key file ${file} on host ${os.hostname()}` };
}

function generateKeyFile(dataDir: string): { key: Buffer; origin: string } {
  const file = keyFilePath(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600 });
  return { key, origin: `the key file ${file} on host ${os.hostname()}` };
}

/** ENCRYPTION_KEY (hex or base64) when set; else a key generated once into DATA_DIR (mode 600). */
export function loadEncryptionKey(configured: string | undefined, dataDir: string): Buffer {
  return (existingKey(configured, dataDir) ?? generateKeyFile(dataDir)).key;
}

/**
 * A fingerprint that tells keys apart without revealing them: HMAC-SHA256 of a fixed label, keyed
 * with the key. Safe to store beside the ciphertext; it says nothing about the key itself.
 */
export function keyFingerprint(key: Buffer): string {
  return createHmac('sha256', key).update('muster encryption key fingerprint v1').digest('hex');
}

const KEY_FINGERPRINT_FACT = 'encryption_key_fingerprint';
/** Where the first key came from (a file path and host, or the setting): never the key. */
const KEY_ORIGIN_FACT = 'encryption_key_origin';

export class EncryptionKeyMismatch extends Error {}

const short = (fingerprint: string) => `${fingerprint.slice(0, 12)}…`;

/** The refusal: what is wrong, then how to set ENCRYPTION_KEY and where the original key is. */
function mismatch(problem: string, firstOrigin: string | null): EncryptionKeyMismatch {
  const where = firstOrigin
    ? `The original key came from ${firstOrigin}.`
    : 'The original key is the ENCRYPTION_KEY, or the file encryption-key in DATA_DIR, of the instance that first started on this database.';
  return new EncryptionKeyMismatch(
    `${problem} Muster will not start with another key, so SSNs are never written under two keys. ` +
      `Set ENCRYPTION_KEY to the original key (64 hex characters), the same on every instance. ${where} ` +
      'A key file holds the key itself: ENCRYPTION_KEY=$(cat /path/to/encryption-key).',
  );
}

/**
 * The field cipher for this start, after making sure every instance on this database uses one key.
 * The first start stores the key's fingerprint (and where the key came from) in installation_facts;
 * every later start, on any instance, must present the same key or is refused with a message that
 * says how to set ENCRYPTION_KEY. A key is generated into DATA_DIR only when the database has none
 * yet, so a second instance without ENCRYPTION_KEY is refused instead of minting its own. On a
 * database that already holds SSNs from before fingerprints, the key must decrypt one of them.
 * Two instances starting at once: the fingerprint row is inserted with ON CONFLICT DO NOTHING, so
 * exactly one key wins and the other instance reads it and is refused.
 */
export async function openFieldCipher(db: Db, configured: string | undefined, dataDir: string): Promise<FieldCipher> {
  const readFacts = async () => {
    const rows = await db
      .select()
      .from(installationFacts)
      .where(inArray(installationFacts.name, [KEY_FINGERPRINT_FACT, KEY_ORIGIN_FACT]));
    const fact = (name: string) => rows.find((r) => r.name === name)?.value ?? null;
    const fingerprint = fact(KEY_FINGERPRINT_FACT);
    return fingerprint ? { fingerprint, origin: fact(KEY_ORIGIN_FACT) } : null;
  };
  const found = existingKey(configured, dataDir);
  const before = await readFacts();
  if (!found && before) {
    throw mismatch(
      `This database was set up with an encryption key (fingerprint ${short(before.fingerprint)}) and this instance has neither ENCRYPTION_KEY nor a key file in ${dataDir}.`,
      before.origin,
    );
  }
  const mine = found ?? generateKeyFile(dataDir);
  const fingerprint = keyFingerprint(mine.key);
  const cipher = createFieldCipher(mine.key);
  // A key minted here a moment ago and refused (another instance won the race) is not kept.
  const refuse = (err: Error) => {
    if (!found) fs.rmSync(keyFilePath(dataDir), { force: true });
    return err;
  };

  await db.transaction(async (tx) => {
    const claimed = await tx
      .insert(installationFacts)
      .values([
        { name: KEY_FINGERPRINT_FACT, value: fingerprint },
        { name: KEY_ORIGIN_FACT, value: mine.origin },
      ])
      .onConflictDoNothing()
      .returning({ name: installationFacts.name });
    if (!claimed.some((r) => r.name === KEY_FINGERPRINT_FACT)) return;
    // First start with fingerprints: SSNs written before must open with this key.
    const [sample] = await tx.select({ ssn: students.ssnEncrypted }).from(students).where(isNotNull(students.ssnEncrypted)).limit(1);
    if (sample?.ssn) {
      try {
        cipher.decrypt(sample.ssn);
      } catch {
        throw refuse(mismatch(`This database holds SSNs that ${mine.origin} cannot decrypt: they were written with another key.`, null));
      }
    }
  });
  const stored = await readFacts();
  if (stored && stored.fingerprint !== fingerprint) {
    throw refuse(
      mismatch(
        `The encryption key does not match this database: it was set up with another key (fingerprint ${short(stored.fingerprint)}), and this instance has ${mine.origin} (fingerprint ${short(fingerprint)}).`,
        stored.origin,
      ),
    );
  }
  return cipher;
}

export function maskSsn(last4: string | null): string | null {
  return last4 ? `***-**-${last4}` : null;
}
