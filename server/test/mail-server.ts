import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

type ReceivedMail = { from: string; to: string[]; raw: string; header: (name: string) => string | undefined };

/**
 * A real SMTP server on loopback for tests. `answer` may refuse a recipient with an SMTP code
 * (e.g. 451 for "try later", 550 for "no such mailbox"); otherwise every message is accepted.
 */
export async function startTestSmtpServer(answer?: (to: string) => number | null) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = answer?.(address.address) ?? null;
      if (code == null) return callback();
      const err = new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later') as Error & { responseCode: number };
      err.responseCode = code;
      return callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const headerBlock = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          header: (name) =>
            headerBlock
              .split(/\r?\n/)
              .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
              ?.slice(name.length + 1)
              .trim(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
