import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import type { OutboxRow } from './queries.ts';

/** What one attempt gave: sent, worth another try later, or never going to work. */
export type AttemptResult = { ok: true } | { ok: false; permanent: boolean; error: string };

export type MessageSenders = {
  email: ((m: OutboxRow) => Promise<AttemptResult>) | null;
  sms: ((m: OutboxRow) => Promise<AttemptResult>) | null;
  close: () => void;
};

/** SMTP replies 5xx are permanent (no such mailbox, rejected); 4xx and network trouble are not. */
function smtpFailure(err: unknown): AttemptResult {
  const e = err as { responseCode?: number; message?: string; code?: string };
  const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
  return { ok: false, permanent, error: `${e.responseCode ? `SMTP ${e.responseCode}: ` : e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}` };
}

/**
 * The transports the outbox worker uses: SMTP through nodemailer (SMTP_URL), SMS through a
 * Twilio-compatible HTTP API (SMS_API_URL: POST To, From, Body with basic credentials).
 * A channel without configuration has no sender: its messages wait, they are never dropped.
 */
export function createMessageSenders(config: Config, fetchImpl: typeof fetch = fetch): MessageSenders {
  const smtp = config.smtp;
  const transport = smtp ? nodemailer.createTransport(smtp.url) : null;
  const email = transport
    ? async (m: OutboxRow): Promise<AttemptResult> => {
        try {
          await transport.sendMail({
            from: smtp!.from,
            to: m.recipient,
            subject: m.subject ?? '',
            text: m.textBody,
            html: m.htmlBody ?? undefined,
            // The same Message-ID on every attempt: a receiving server can recognise a repeat.
            messageId: m.messageId,
            headers: m.unsubscribeUrl ? { 'List-Unsubscribe': `<${m.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : undefined,
          });
          return { ok: true };
        } catch (err) {
          return smtpFailure(err);
        }
      }
    : null;
  const sms = config.sms;
  const text = sms
    ? async (m: OutboxRow): Promise<AttemptResult> => {
        try {
          const res = await fetchImpl(sms.apiUrl, {
            method: 'POST',
            headers: {
              authorization: `Basic ${Buffer.from(`${sms.username}:${sms.password}`).toString('base64')}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: new URLSearchParams({ To: m.recipient, From: sms.from, Body: m.textBody }),
            signal: AbortSignal.timeout(15_000),
          });
          if (res.ok) return { ok: true };
          const detail = (await res.text().catch(() => '')).slice(0, 200);
          // 429 and 5xx: the provider is busy or down; other 4xx: this message will never go.
          const permanent = res.status >= 400 && res.status < 500 && res.status !== 429 && res.status !== 408;
          return { ok: false, permanent, error: `SMS provider answered ${res.status}${detail ? `: ${detail}` : ''}` };
        } catch (err) {
          return { ok: false, permanent: false, error: `SMS provider unreachable: ${(err as Error).message}` };
        }
      }
    : null;
  return { email, sms: text, close: () => transport?.close() };
}
