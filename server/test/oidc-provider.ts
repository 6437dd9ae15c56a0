import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

type TestIdentity = { sub: string; email: string; email_verified: boolean };

/**
 * A real OpenID provider (oidc-provider) on loopback for tests. Its interactions sign in as
 * `provider.signInAs` and grant consent at once, so a test (or a browser) goes straight through.
 */
export async function startTestOidcProvider(opts: { clientId: string; clientSecret: string; redirectUri: string }) {
  const identities = new Map<string, TestIdentity>();
  const control = { signInAs: null as TestIdentity | null };
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    cookies: { keys: ['test-only-cookie-key'] },
    features: { devInteractions: { enabled: false } },
    findAccount: async (_ctx, id) => {
      const who = identities.get(id);
      return who ? { accountId: id, claims: async () => ({ ...who }) } : undefined;
    },
  });
  provider.on('server_error', () => {});
  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          const who = control.signInAs!;
          identities.set(who.sub, who);
          await provider.interactionFinished(req, res, { login: { accountId: who.sub } }, { mergeWithLastSubmission: false });
          return;
        }
        const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
        grant.addOIDCScope('openid email profile');
        await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
      })().catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    handle(req, res);
  });
  return {
    issuer,
    control,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A free loopback port: the provider must know the app's redirect URI before the app listens. */
export async function freeLoopbackPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}
