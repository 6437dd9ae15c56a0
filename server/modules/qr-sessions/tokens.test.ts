import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isFreshCode, isFreshQrToken, isFreshToken, isValidPass, issuePass, readPass, shortCodeAt, tokenAt } from './tokens.ts';

const secret = randomBytes(32);
const sid = '6f1c1c39-2a56-4a7e-9d1a-2b7b1f8c0d11';
const t0 = new Date('2026-03-02T14:00:07Z');
const plus = (ms: number) => new Date(t0.getTime() + ms);

describe('rotating QR tokens', () => {
  it('accepts the current and the previous token, not older ones', () => {
    const { token } = tokenAt(secret, sid, t0);
    expect(isFreshToken(secret, sid, token, t0)).toBe(true);
    expect(isFreshToken(secret, sid, token, plus(15_000))).toBe(true);
    expect(isFreshToken(secret, sid, token, plus(30_000))).toBe(false);
    expect(isFreshToken(secret, sid, token, plus(60 * 60_000))).toBe(false);
  });

  it('changes every 15 seconds and differs per session and secret', () => {
    expect(tokenAt(secret, sid, t0).token).not.toBe(tokenAt(secret, sid, plus(15_000)).token);
    expect(tokenAt(secret, sid, t0).token).not.toBe(tokenAt(randomBytes(32), sid, t0).token);
    expect(isFreshToken(secret, 'other', tokenAt(secret, sid, t0).token, t0)).toBe(false);
  });

  it('accepts the typed six-digit code of the current or previous step', () => {
    const code = shortCodeAt(secret, sid, t0);
    expect(code).toMatch(/^\d{6}$/);
    expect(isFreshToken(secret, sid, code, plus(14_000))).toBe(true);
    expect(isFreshToken(secret, sid, `${code.slice(0, 3)} ${code.slice(3)}`, t0)).toBe(true);
    expect(isFreshToken(secret, sid, code, plus(45_000))).toBe(false);
  });

  it('refuses forged tokens', () => {
    expect(isFreshToken(secret, sid, 'AAAAAAAAAAAA', t0)).toBe(false);
    expect(isFreshToken(secret, sid, '', t0)).toBe(false);
  });

  it('gives a device a 5-minute pass bound to that device', () => {
    const { pass } = issuePass(secret, sid, 'device-a', t0);
    expect(isValidPass(secret, sid, 'device-a', pass, plus(4 * 60_000))).toBe(true);
    expect(isValidPass(secret, sid, 'device-a', pass, plus(5 * 60_000))).toBe(false);
    expect(isValidPass(secret, sid, 'device-b', pass, plus(60_000))).toBe(false);
    const [exp, tag, sig] = pass.split('.');
    const extended = `${(parseInt(exp!, 36) + 3_600_000).toString(36)}.${tag}.${sig}`;
    expect(isValidPass(secret, sid, 'device-a', extended, plus(60_000))).toBe(false);
  });

  it('tells a pass given to another device cookie from a forged one, without naming the device', () => {
    const { pass } = issuePass(secret, sid, 'device-a', t0);
    expect(pass).not.toContain('device-a');
    expect(readPass(secret, sid, 'device-a', pass)).toEqual({ issuedAt: t0, expiresAt: plus(5 * 60_000), forThisDevice: true });
    // The same browser without its cookie: the server minted another device id.
    expect(readPass(secret, sid, 'device-b', pass)).toMatchObject({ issuedAt: t0, forThisDevice: false });
    const [exp, , sig] = pass.split('.');
    expect(readPass(secret, sid, 'device-b', `${exp}.AAAAAAAA.${sig}`)).toBeNull();
    expect(readPass(randomBytes(32), sid, 'device-a', pass)).toBeNull();
    expect(readPass(secret, sid, 'device-a', 'not-a-pass')).toBeNull();
  });

  it('takes only the QR token in a scan URL, the six digits only where typed', () => {
    const code = shortCodeAt(secret, sid, t0);
    const { token } = tokenAt(secret, sid, t0);
    expect(isFreshQrToken(secret, sid, token, t0)).toBe(true);
    expect(isFreshQrToken(secret, sid, code, t0)).toBe(false);
    expect(isFreshCode(secret, sid, code, t0)).toBe(true);
    expect(isFreshCode(secret, sid, token, t0)).toBe(false);
  });
});
