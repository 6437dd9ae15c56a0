import * as oidc from 'openid-client';
import type { SsoRefusal, SsoStatus } from '../../../common/auth.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { emailMatchKey } from '../../lib/email-match.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { isLoopbackHost } from '../../lib/network-addresses.ts';
import { recordSsoRefusal, ssoButtonLabel, startSsoSession } from '../auth/service.ts';
import { getSettings } from '../settings/service.ts';
import { bindSubject, findAccountByEmail, subjectHeldByOther } from './queries.ts';

type Meta = { ip: string | null; userAgent: string | null };
type OidcConfig = NonNullable<Config['oidc']>;

/** The sign-in in flight, sealed into a short-lived cookie: nothing to store, nothing to forge. */
type PendingSignIn = { state: string; nonce: string; codeVerifier: string; redirectUri: string; startedAt: number };
const PENDING_TTL_MS = 10 * 60_000;

export class SsoRefused extends Error {
  constructor(readonly reason: SsoRefusal) {
    super(reason);
  }
}

// One discovery per issuer and process; a failed one is forgotten so the next sign-in tries again.
const discovered = new Map<string, Promise<oidc.Configuration>>();
function providerConfiguration(o: OidcConfig): Promise<oidc.Configuration> {
  const key = `${o.issuer}|${o.clientId}`;
  let found = discovered.get(key);
  if (!found) {
    const issuer = new URL(o.issuer);
    // Plain http only for a provider on this machine (a test or development provider), never over a network.
    const insecure = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname);
    found = oidc.discovery(issuer, o.clientId, o.clientSecret, undefined, insecure ? { execute: [oidc.allowInsecureRequests] } : undefined);
    found.catch(() => discovered.delete(key));
    discovered.set(key, found);
  }
  return found;
}

export async function ssoStatus(db: Db, config: Config): Promise<SsoStatus> {
  const { security } = await getSettings(db);
  return {
    enabled: config.oidc != null,
    buttonLabel: await ssoButtonLabel(db, config),
    localSignInDisabled: config.oidc != null && security.localSignInDisabled,
  };
}

/** Where to send the browser (authorization code flow with PKCE, state and nonce) and the sealed cookie value. */
export async function beginSsoSignIn(config: Config, cipher: FieldCipher, redirectUri: string, clock: Clock): Promise<{ url: string; sealed: string }> {
  if (!config.oidc) throw new SsoRefused('unavailable');
  const provider = await providerConfiguration(config.oidc).catch(() => {
    throw new SsoRefused('unavailable');
  });
  const pending: PendingSignIn = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    codeVerifier: oidc.randomPKCECodeVerifier(),
    redirectUri,
    startedAt: clock.now().getTime(),
  };
  const url = oidc.buildAuthorizationUrl(provider, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
  });
  return { url: url.href, sealed: cipher.for('sso-state').encrypt(JSON.stringify(pending)) };
}

function openPending(cipher: FieldCipher, sealed: string | undefined, now: number): PendingSignIn {
  if (!sealed) throw new SsoRefused('failed');
  let pending: PendingSignIn;
  try {
    pending = JSON.parse(cipher.for('sso-state').decrypt(sealed)) as PendingSignIn;
  } catch {
    throw new SsoRefused('failed');
  }
  if (now - pending.startedAt > PENDING_TTL_MS) throw new SsoRefused('failed');
  return pending;
}

/**
 * The provider sent the browser back. The code is exchanged (PKCE), the state and the ID token's
 * nonce, issuer, audience and signature are checked by openid-client; then the identity is matched
 * to an existing active account by its verified e-mail and, once linked, its subject. Nobody is
 * created here: an identity without an account is refused.
 */
export async function completeSsoSignIn(
  db: Db,
  config: Config,
  cipher: FieldCipher,
  callbackUrl: URL,
  sealed: string | undefined,
  meta: Meta,
  clock: Clock,
): Promise<{ token: string }> {
  if (!config.oidc) throw new SsoRefused('unavailable');
  const pending = openPending(cipher, sealed, clock.now().getTime());
  const provider = await providerConfiguration(config.oidc).catch(() => {
    throw new SsoRefused('unavailable');
  });
  // The provider answers at the address we gave it, whatever Host the proxy passed on.
  const returned = new URL(pending.redirectUri);
  returned.search = callbackUrl.search;
  let claims: { sub: string; email?: unknown; email_verified?: unknown } | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(provider, returned, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims();
    // Providers that keep the e-mail out of the ID token answer it at the userinfo endpoint,
    // for the same subject (openid-client checks that it matches).
    if (claims && typeof claims.email !== 'string') {
      const info = await oidc.fetchUserInfo(provider, tokens.access_token, claims.sub);
      claims = { ...claims, email: info.email, email_verified: info.email_verified };
    }
  } catch {
    await recordSsoRefusal(db, null, 'the provider’s answer did not check out', meta, clock);
    throw new SsoRefused('failed');
  }
  if (!claims) throw new SsoRefused('failed');
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  const subject = claims.sub;
  if (!email || claims.email_verified !== true) {
    await recordSsoRefusal(db, null, 'e-mail not verified by the provider', meta, clock);
    throw new SsoRefused('unverified_email');
  }
  // Compared in one form on both sides (lib/email-match.ts): a claim that Unicode would turn into
  // another address (the Kelvin sign for "k") names no account.
  const key = emailMatchKey(email);
  if (!key) {
    await recordSsoRefusal(db, null, 'e-mail changes under Unicode normalisation or case folding', meta, clock);
    throw new SsoRefused('unknown_user');
  }
  const account = await findAccountByEmail(db, key);
  if (!account) {
    await recordSsoRefusal(db, null, 'no account for the e-mail', meta, clock);
    throw new SsoRefused('unknown_user');
  }
  if (!account.isActive) {
    await recordSsoRefusal(db, account.id, 'inactive account', meta, clock);
    throw new SsoRefused('inactive_user');
  }
  // Once linked, an account answers only to its own subject: a re-used or re-assigned e-mail at the
  // provider cannot take it over.
  if ((account.oidcSubject && account.oidcSubject !== subject) || (await subjectHeldByOther(db, subject, account.id))) {
    await recordSsoRefusal(db, account.id, 'linked to another identity', meta, clock);
    throw new SsoRefused('subject_mismatch');
  }
  if (!account.oidcSubject) await bindSubject(db, account.id, subject);
  const token = await startSsoSession(db, account.id, meta, clock, { issuer: config.oidc.issuer, firstLink: !account.oidcSubject });
  return { token };
}
