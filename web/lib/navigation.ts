/**
 * Full-page navigations to the server's sign-in and sign-out endpoints (SPEC §2). They leave the
 * single-page app on purpose: the server decides where to land (sign-in page or first-run
 * setup), and signing out drops every cached query along with the page.
 */
export const SIGN_IN_URL = '/api/login';
const SIGN_OUT_URL = '/api/logout';

export function goToSignIn(): void {
  window.location.href = SIGN_IN_URL;
}

export function signOut(): void {
  window.location.href = SIGN_OUT_URL;
}
