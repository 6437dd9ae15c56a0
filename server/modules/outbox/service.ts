import { randomUUID } from 'node:crypto';
import type { DeliveryStatus } from '../../../common/notifications.ts';
import { NOTIFICATION_SWITCHES, type NotificationSettings } from '../../../common/settings.ts';
import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { insertOutboxMessages, selectOutboxCounts } from './queries.ts';

export type EmailMessage = {
  /** What caused it: low_attendance, weekly_report, maintenance, student_hours_link, … */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
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
  return `${publicBaseUrl(config)}/unsubscribe?token=${cipher.encrypt(JSON.stringify(target))}`;
}

/** The target of a token from an unsubscribe link, or null when it is not one of ours. */
export function readUnsubscribeToken(cipher: FieldCipher, token: string): UnsubscribeTarget | null {
  try {
    const value = JSON.parse(cipher.decrypt(token)) as Record<string, unknown>;
    if (typeof value.studentId === 'number') return { studentId: value.studentId };
    if (typeof value.userId === 'number' && typeof value.switch === 'string' && (NOTIFICATION_SWITCHES as string[]).includes(value.switch)) {
      return { userId: value.userId, switch: value.switch as keyof NotificationSettings };
    }
    return null;
  } catch {
    return null;
  }
}
