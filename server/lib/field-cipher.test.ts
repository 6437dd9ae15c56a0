import { createCipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { buildStudent } from '../test/factories.ts';
import { createTestDatabase } from '../test/helpers.ts';
import { CIPHER_PURPOSES, createFieldCipher, type SealingCipher, EncryptionKeyMismatch, keyFilePath, keyFingerprint, openFieldCipher } from './field-cipher.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
const dirs: string[] = [];
const dataDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-key-'));
  dirs.push(d);
  return d;
};
const facts = async () => (await db.execute<{ name: string; value: string }>(sql`select name, value from installation_facts order by name`)).rows;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(async () => {
  await database.drop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
beforeEach(async () => {
  await db.execute(sql`delete from installation_facts where name like 'encryption_key%'`);
  await db.execute(sql`update students set ssn_encrypted = null`);
});

describe('one encryption key per database', () => {
  it('stores a fingerprint (never the key) on first start and accepts the same key again', async () => {
    const hex = randomBytes(32).toString('hex');
    const cipher = await openFieldCipher(db, hex, dataDir());
    expect(cipher.decrypt(cipher.encrypt('123456789'))).toBe('123456789');
    const stored = await facts();
    expect(stored).toEqual([
      { name: 'encryption_key_fingerprint', value: keyFingerprint(Buffer.from(hex, 'hex')) },
      { name: 'encryption_key_origin', value: 'the ENCRYPTION_KEY setting' },
    ]);
    expect(JSON.stringify(stored)).not.toContain(hex);
    expect(JSON.stringify(stored)).not.toContain(Buffer.from(hex, 'hex').toString('base64'));
    // The same key as base64 is the same key.
    await expect(openFieldCipher(db, Buffer.from(hex, 'hex').toString('base64'), dataDir())).resolves.toBeDefined();
  });

  it('refuses a different ENCRYPTION_KEY, saying how to set it and where the original key file is', async () => {
    const first = dataDir();
    await openFieldCipher(db, undefined, first);
    expect(fs.existsSync(keyFilePath(first))).toBe(true);
    const err = await openFieldCipher(db, randomBytes(32).toString('hex'), dataDir()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EncryptionKeyMismatch);
    const message = (err as Error).message;
    expect(message).toContain('Set ENCRYPTION_KEY');
    expect(message).toContain(keyFilePath(first));
    expect(message).toContain(os.hostname());
    expect(message).not.toContain(fs.readFileSync(keyFilePath(first), 'utf8').trim());
  });

  it('a second instance without ENCRYPTION_KEY is refused instead of generating its own key', async () => {
    const first = dataDir();
    await openFieldCipher(db, undefined, first);
    const second = dataDir();
    await expect(openFieldCipher(db, undefined, second)).rejects.toThrow(/neither ENCRYPTION_KEY nor a key file.*Set ENCRYPTION_KEY/);
    expect(fs.existsSync(keyFilePath(second))).toBe(false);
    // Given the original key, it starts, and both encrypt under one key.
    const key = fs.readFileSync(keyFilePath(first), 'utf8').trim();
    const [a, b] = [await openFieldCipher(db, undefined, first), await openFieldCipher(db, key, second)];
    expect(b.decrypt(a.encrypt('987654321'))).toBe('987654321');
  });

  it('two instances starting at once with their own new keys: exactly one starts', async () => {
    const results = await Promise.allSettled([
      openFieldCipher(db, undefined, dataDir()),
      openFieldCipher(db, undefined, dataDir()),
      openFieldCipher(db, undefined, dataDir()),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof EncryptionKeyMismatch)).toBe(true);
    expect((await facts()).filter((f) => f.name === 'encryption_key_fingerprint')).toHaveLength(1);
  });

  it('on a database whose SSNs were sealed before per-purpose keys, the same key starts and reads them', async () => {
    const old = randomBytes(32);
    const student = await buildStudent(db, { firstName: 'Old', lastName: 'Seal', ssnEncrypted: sealV1(old, '123456789'), ssnLast4: '6789', programId: null });
    await expect(openFieldCipher(db, randomBytes(32).toString('hex'), dataDir())).rejects.toThrow(/holds SSNs that the ENCRYPTION_KEY setting cannot decrypt/);
    const cipher = await openFieldCipher(db, old.toString('hex'), dataDir());
    const stored = (await db.execute<{ s: string }>(sql`select ssn_encrypted as s from students where id = ${student.id}`)).rows[0]!.s;
    expect(cipher.decrypt(stored)).toBe('123456789');
    await db.execute(sql`delete from students where id = ${student.id}`);
  });

  it('on a database that already holds SSNs, the first fingerprint is only stored for a key that decrypts them', async () => {
    const old = randomBytes(32);
    const student = await buildStudent(db, {
      firstName: 'Old',
      lastName: 'Record',
      ssnEncrypted: createFieldCipher(old).encrypt('123456789'),
      ssnLast4: '6789',
      programId: null,
    });
    await expect(openFieldCipher(db, randomBytes(32).toString('hex'), dataDir())).rejects.toThrow(/holds SSNs that the ENCRYPTION_KEY setting cannot decrypt/);
    expect(await facts()).toEqual([]);
    await expect(openFieldCipher(db, old.toString('hex'), dataDir())).resolves.toBeDefined();
    await db.execute(sql`delete from students where id = ${student.id}`);
  });
});

/** A value sealed as before per-purpose keys: AES-256-GCM under the installation key itself. */
function sealV1(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return `v1.${iv.toString('base64url')}.${c.getAuthTag().toString('base64url')}.${data.toString('base64url')}`;
}
const withTag = (stored: string, tagBytes: number) => {
  const [v, iv, tag, data] = stored.split('.');
  return [v, iv, Buffer.from(tag!, 'base64url').subarray(0, tagBytes).toString('base64url'), data].join('.');
};

describe('one key per purpose, derived from the installation key', () => {
  it('a value sealed for one purpose opens under no other', () => {
    const cipher = createFieldCipher(randomBytes(32));
    for (const sealedFor of CIPHER_PURPOSES) {
      const stored = cipher.for(sealedFor).encrypt('{"userId":1,"switch":"weeklyReports"}');
      expect(stored.startsWith('v1.')).toBe(true);
      expect(cipher.for(sealedFor).decrypt(stored)).toBe('{"userId":1,"switch":"weeklyReports"}');
      for (const other of CIPHER_PURPOSES.filter((p) => p !== sealedFor)) expect(() => cipher.for(other).decrypt(stored), `${sealedFor} → ${other}`).toThrow();
    }
    // The cipher's own encrypt/decrypt are the SSNs'.
    expect(cipher.for('ssn').decrypt(cipher.encrypt('123456789'))).toBe('123456789');
    expect(() => cipher.for('totp').decrypt(cipher.encrypt('123456789'))).toThrow();
  });

  it('still opens SSNs and TOTP secrets sealed with the installation key itself (before per-purpose keys); nothing a request carries opens so', () => {
    const key = randomBytes(32);
    const cipher = createFieldCipher(key);
    const legacy = sealV1(key, 'JBSWY3DPEHPK3PXP');
    expect(cipher.decrypt(legacy)).toBe('JBSWY3DPEHPK3PXP');
    expect(cipher.for('totp').decrypt(legacy)).toBe('JBSWY3DPEHPK3PXP');
    // An old unsubscribe token, or any value sealed with the installation key, is no unsubscribe token or SSO state now.
    expect(() => cipher.for('unsubscribe').decrypt(legacy)).toThrow();
    expect(() => cipher.for('sso-state').decrypt(legacy)).toThrow();
    // A value under another key opens nowhere; nor does an unknown version.
    expect(() => cipher.decrypt(sealV1(randomBytes(32), 'x'))).toThrow();
    expect(() => cipher.decrypt(legacy.replace(/^v1\./, 'v2.'))).toThrow();
  });

  it('accepts only full 16-byte tags, never a shortened one', () => {
    const key = randomBytes(32);
    const cipher = createFieldCipher(key);
    const cases: [SealingCipher, string][] = [
      [cipher.for('ssn'), cipher.encrypt('123456789')],
      [cipher.for('sso-state'), cipher.for('sso-state').encrypt('{"state":"s"}')],
      [cipher.for('totp'), sealV1(key, 'JBSWY3DPEHPK3PXP')],
    ];
    for (const [opener, stored] of cases) {
      expect(() => opener.decrypt(stored)).not.toThrow();
      // GCM would check a prefix of the right tag as a tag of that length: 4 bytes are guessable.
      for (const bytes of [15, 13, 12, 8, 4]) expect(() => opener.decrypt(withTag(stored, bytes)), `${bytes}-byte tag`).toThrow();
    }
  });
});

describe('AES-GCM with a fresh random IV for every value', () => {
  it('never repeats an IV across refills of the IV pool, and every value decrypts', () => {
    const cipher = createFieldCipher(randomBytes(32));
    const ivs = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const plain = `9000${String(i).padStart(5, '0')}`;
      const stored = cipher.encrypt(plain);
      ivs.add(stored.split('.')[1]!);
      expect(cipher.decrypt(stored)).toBe(plain);
    }
    expect(ivs.size).toBe(1000);
  });
});
