// Texts of the sign-in pages that the web app's first draw needs. This module must not import zod:
// the sign-in page loads the schemas of common/auth.ts only when a form is used (decision 025).

/** What a password form tells the user before they type. */
export const PASSWORD_HINT = 'At least 8 characters. Not a common password, and not your name or e-mail address.';

/** Why a single sign-on was refused: the sign-in page explains each in words. */
export const SSO_REFUSALS = {
  unknown_user: 'There is no Muster account for that e-mail address. Ask an administrator to add you.',
  inactive_user: 'Your Muster account is deactivated. Ask an administrator.',
  unverified_email: 'Your school account did not confirm its e-mail address, so Muster cannot match it to an account.',
  subject_mismatch: 'This Muster account is linked to a different school account. Ask an administrator.',
  failed: 'Sign-in with your school account did not complete. Please try again.',
  unavailable: 'Single sign-on is not available right now. Please try again later.',
} as const;
export type SsoRefusal = keyof typeof SSO_REFUSALS;

export const INVALID_CREDENTIALS = 'Invalid e-mail or password';

/**
 * Why a sign-in sent as a plain form post (before the app's script arrived) was refused: the
 * server redirects to /login?signin_error=<code> and the page says this. Codes, not texts, travel
 * in the address.
 */
export const SIGN_IN_FORM_REFUSALS = {
  INVALID_CREDENTIALS,
  VALIDATION_ERROR: 'Enter your e-mail address and password.',
  RATE_LIMITED: 'Too many sign-in attempts. Please wait a minute and try again.',
  LOCAL_SIGN_IN_OFF: 'This school signs staff in through its own accounts: use the button above.',
} as const;
type SignInFormRefusal = keyof typeof SIGN_IN_FORM_REFUSALS;

/**
 * The words for a refusal code read from the address (?sso_error=, ?signin_error=), or null for any
 * other text. Object.hasOwn, never `in`: `'__proto__' in {}` is true (so are constructor, toString…),
 * and an address naming one of those would hand the page a function or Object.prototype to draw.
 */
function ownText<T extends Record<string, string>>(texts: T, code: string | null | undefined): T[keyof T] | null {
  return code != null && Object.hasOwn(texts, code) ? texts[code as keyof T] : null;
}
export const ssoRefusalText = (code: string | null | undefined) => ownText(SSO_REFUSALS, code);
export const signInFormRefusalText = (code: string | null | undefined) => ownText(SIGN_IN_FORM_REFUSALS, code);
/** Whether a code is one the sign-in form's refusals name (the server redirects with it, else INVALID_CREDENTIALS). */
export const isSignInFormRefusal = (code: string): code is SignInFormRefusal => Object.hasOwn(SIGN_IN_FORM_REFUSALS, code);
