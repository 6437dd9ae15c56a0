import { randomUUID } from 'node:crypto';
import { EMAIL_NOT_CONFIGURED, OUTBOX_CHANNELS, type DeliveryStatus } from '../../../common/notifications.ts';
import { badRequest } from '../../lib/errors.ts';
import { NOTIFICATION_SWITCHES, type NotificationSettings } from '../../../common/settings.ts';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { MessageSenders } from './delivery.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { claimDueMessages, insertOutboxMessages, markOutboxAttemptFailed, markOutboxSent, selectOutboxCounts } from './queries.ts';

export type EmailMessage = {
  /** What caused it: low_attendance, weekly_report, maintenance, student_hours_link, … */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Also sent as the List-Unsubscribe header. */
  unsubscribeUrl?: string;
  userId?: number | null;
  studentId?: number | null;
};
export type SmsMessage = { kind: string; to: string; text: string; studentId?: number | null; userId?: number | null };

/** Whether e-mail can be sent at all; without SMTP_URL every e-mail switch says "not configured". */
export const emailConfigured = (config: Config) => config.smtp != null;
export const smsConfigured = (config: Config) => config.sms != null;

const newMessageId = () => `<${randomUUID()}@muster.invalid>`;

/**
 * Queue e-mails in the caller's transaction, so they exist exactly when the event that caused them
 * committed. The outbox worker sends them. Callers check `emailConfigured` first: nothing is queued
 * that could never be sent.
 */
export async function queueEmails(tx: DbOrTx, messages: EmailMessage[]): Promise<number[]> {
  return insertOutboxMessages(
    tx,
    messages.map((m) => ({
      channel: 'email' as const,
      kind: m.kind,
      recipient: m.to,
      subject: m.subject,
      textBody: m.text,
      htmlBody: m.html ?? null,
      unsubscribeUrl: m.unsubscribeUrl ?? null,
      userId: m.userId ?? null,
      studentId: m.studentId ?? null,
      messageId: newMessageId(),
    })),
  );
}

/** Queue text messages in the caller's transaction (see queueEmails). */
export async function queueSms(tx: DbOrTx, messages: SmsMessage[]): Promise<number[]> {
  return insertOutboxMessages(
    tx,
    messages.map((m) => ({
      channel: 'sms' as const,
      kind: m.kind,
      recipient: m.to,
      subject: null,
      textBody: m.text,
      userId: m.userId ?? null,
      studentId: m.studentId ?? null,
      messageId: newMessageId(),
    })),
  );
}

/** Settings › System: whether each channel can act, and what the outbox holds. */
export async function deliveryStatus(db: DbOrTx, config: Config): Promise<DeliveryStatus> {
  const { counts, last } = await selectOutboxCounts(db);
  const count = (s: string) => counts.find((c) => c.status === s)?.n ?? 0;
  return {
    email: { configured: emailConfigured(config), from: config.smtp?.from ?? null },
    sms: { configured: smsConfigured(config) },
    outbox: {
      queued: count('queued'),
      sent: count('sent'),
      failed: count('failed'),
      lastError: last?.lastError ?? null,
      lastErrorAt: last ? new Date(last.at).toISOString() : null,
    },
  };
}

/** Who an unsubscribe link speaks for: a user's one e-mail switch, or a student's absence notices. */
export type UnsubscribeTarget = { userId: number; switch: keyof NotificationSettings } | { studentId: number };

/**
 * The link every message carries. The token is the target sealed with the installation's field
 * cipher (AES-GCM): it cannot be forged or altered, and needs no table or sign-in.
 */
export function unsubscribeUrl(config: Config, cipher: FieldCipher, target: UnsubscribeTarget): string {
  return `${publicBaseUrl(config)}/unsubscribe?token=${cipher.for('unsubscribe').encrypt(JSON.stringify(target))}`;
}

/** The target of a token from an unsubscribe link, or null when it is not one of ours. */
export function readUnsubscribeToken(cipher: FieldCipher, token: string): UnsubscribeTarget | null {
  try {
    const value = JSON.parse(cipher.for('unsubscribe').decrypt(token)) as Record<string, unknown>;
    if (typeof value.studentId === 'number') return { studentId: value.studentId };
    if (typeof value.userId === 'number' && typeof value.switch === 'string' && (NOTIFICATION_SWITCHES as string[]).includes(value.switch)) {
      return { userId: value.userId, switch: value.switch as keyof NotificationSettings };
    }
    return null;
  } catch {
    return null;
  }
}

/** After this many attempts a message is failed for good and shown as such in Settings › System. */
const MAX_ATTEMPTS = 8;
/** How long a worker holds a claimed message; a worker that died lets go when it passes. */
const CLAIM_MS = 5 * 60 * 1000;

/** 1, 2, 4 … minutes after each failed attempt, at most 6 hours. */
export function retryDelayMs(attemptsSoFar: number): number {
  return Math.min(60_000 * 2 ** attemptsSoFar, 6 * 60 * 60 * 1000);
}

/**
 * Send what is due, channel by channel, in claimed batches. A message is marked sent as soon as
 * the server accepted it; a crash in between (milliseconds) can repeat it, never lose it: the claim
 * expires and it is tried again with the same Message-ID. Idempotent and safe on several instances.
 */
export async function deliverDueMessages(
  db: Db,
  senders: MessageSenders,
  clock: Clock,
  batchSize = 50,
): Promise<{ sent: number; retrying: number; failed: number }> {
  const result = { sent: 0, retrying: 0, failed: 0 };
  for (const channel of OUTBOX_CHANNELS) {
    const send = senders[channel];
    if (!send) continue; // Not configured: the messages wait for configuration, never dropped.
    for (;;) {
      const batch = await claimDueMessages(db, channel, clock.now(), CLAIM_MS, batchSize);
      if (batch.length === 0) break;
      for (const message of batch) {
        const outcome = await send(message);
        if (outcome.ok) {
          await markOutboxSent(db, message.id, clock.now());
          result.sent++;
          continue;
        }
        const giveUp = outcome.permanent || message.attempts + 1 >= MAX_ATTEMPTS;
        const next = giveUp ? null : new Date(clock.now().getTime() + retryDelayMs(message.attempts));
        await markOutboxAttemptFailed(db, message.id, outcome.error, next);
        if (giveUp) result.failed++;
        else result.retrying++;
      }
      if (batch.length < batchSize) break;
    }
  }
  return result;
}

export { createMessageSenders, type MessageSenders } from './delivery.ts';
export { OUTBOX_CHANNEL } from './queries.ts';

/** Settings › System "Send a test e-mail": to the caller, through the same outbox as everything else. */
export async function queueTestEmail(db: Db, config: Config, user: { id: number; email: string }, clock: Clock): Promise<void> {
  if (!emailConfigured(config)) throw badRequest(EMAIL_NOT_CONFIGURED);
  await db.transaction((tx) =>
    queueEmails(tx, [
      {
        kind: 'test',
        to: user.email,
        userId: user.id,
        subject: 'Muster test e-mail',
        text: `This is a test e-mail from Muster at ${publicBaseUrl(config)}, queued ${clock.now().toISOString()}.\nIf you can read it, e-mail from Muster reaches you.`,
      },
    ]),
  );
}
