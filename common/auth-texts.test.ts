import { describe, expect, it } from 'vitest';
import { INVALID_CREDENTIALS, SSO_REFUSALS, isSignInFormRefusal, signInFormRefusalText, ssoRefusalText } from './auth-texts.ts';

// Names every plain object answers to through its prototype: `name in {}` is true for each.
const INHERITED = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__'];

describe('refusal codes read from the sign-in page’s address', () => {
  it('name their words', () => {
    expect(ssoRefusalText('unknown_user')).toBe(SSO_REFUSALS.unknown_user);
    expect(signInFormRefusalText('INVALID_CREDENTIALS')).toBe(INVALID_CREDENTIALS);
    expect(isSignInFormRefusal('RATE_LIMITED')).toBe(true);
  });

  it('are nothing for an unknown code, nothing at all, or a name an object inherits', () => {
    for (const code of [...INHERITED, 'no_such_code', '', null, undefined]) {
      expect(ssoRefusalText(code)).toBeNull();
      expect(signInFormRefusalText(code)).toBeNull();
    }
    for (const code of INHERITED) expect(isSignInFormRefusal(code)).toBe(false);
  });
});
