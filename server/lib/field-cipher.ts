import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * AES-256-GCM for sensitive columns (SSNs). Stored as `v1.<iv>.<tag>.<ciphertext>` in base64url,
 * so a future key rotation can tell versions apart.
 */
export type FieldCipher = { encrypt: (plain: string) => string; decrypt: (stored: string) => string };

export function createFieldCipher(key: Buffer): FieldCipher {
  if (key.length !== 32) throw new Error('The encryption key must be 32 bytes');
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    decrypt(stored) {
      const [v, iv, tag, data] = stored.split('.');
      if (v !== 'v1' || !iv || !tag || !data) throw new Error('Unknown ciphertext format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** ENCRYPTION_KEY (hex or base64) when set; else a key generated once into DATA_DIR (mode 600). */
export function loadEncryptionKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) {
    const key = /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64');
    return key;
  }
  const file = path.join(dataDir, 'encryption-key');
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600 });
  return key;
}

export function maskSsn(last4: string | null): string | null {
  return last4 ? `***-**-${last4}` : null;
}
