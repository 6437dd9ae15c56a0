/**
 * The one form in which two e-mail addresses are compared when one of them names an account (single
 * sign-on matches a provider's verified e-mail to a Muster account). Applied to both sides, equal
 * keys mean the same address.
 *
 * Only ASCII letters are folded (A–Z to a–z). An address that Unicode would make into another one is
 * no address to match: null when NFKC normalisation changes it (the Kelvin sign U+212A is "K", the
 * long s U+017F is "s", full-width letters…) or when it holds a non-ASCII character that lowercases
 * to something with ASCII in it (İ U+0130 → "i̇"). JavaScript's toLowerCase and PostgreSQL's lower()
 * both map the Kelvin sign to "k", so 'admin@\u212Aschool.edu' matched the account
 * 'admin@kschool.edu' at a provider that verified the former.
 */
export function emailMatchKey(email: string): string | null {
  if (email.normalize('NFKC') !== email) return null;
  for (const ch of email) {
    if (ch.charCodeAt(0) > 0x7f && [...ch.toLowerCase()].some((c) => c.charCodeAt(0) <= 0x7f)) return null;
  }
  return email.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
