import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id is 2 (the package exports it as a const enum, which isolated modules cannot read).
const ARGON2ID = 2;

// argon2id with the library's defaults (m=19 MiB, t=2, p=1: the OWASP baseline).
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// Verifying against this when the e-mail is unknown keeps the timing of both answers alike.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-' + Math.random());
  return dummyHash;
}
