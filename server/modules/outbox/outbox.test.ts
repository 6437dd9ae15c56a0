import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../config.ts';
import { startTestSmtpServer } from '../../test/mail-server.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { createMessageSenders, deliverDueMessages, queueEmails, queueSms, retryDelayMs } from './service.ts';

// Messages are queued at the database's now(): the worker's clock starts a minute past the real
// time (a fixed date would make every queued message lie in its future once that date has passed).
const clock = fixedClock(new Date(Date.now() + 60_000));
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
let mailConfig: Config;
// Recipients the test SMTP server refuses: 451 (try later) until `busyUntilAccepted` is false, 550 for good.
let busy = true;
beforeAll(async () => {
  smtp = await startTestSmtpServer((to) => (to.startsWith('busy@') && busy ? 451 : to.startsWith('nobody@') ? 550 : null));
  mailConfig = { ...loadConfig({ NODE_ENV: 'test' }), smtp: { url: smtp.url, from: 'Muster <muster@school.test>' }, publicUrl: 'https://muster.school.test' };
  t = await createTestApp({ clock, config: mailConfig });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const outbox = async () =>
  (
    await t.db.execute<{
      id: number;
      recipient: string;
      status: string;
      attempts: number;
      next_attempt_at: Date;
      last_error: string | null;
      message_id: string;
    }>(sql`select id, recipient, status, attempts, next_attempt_at, last_error, message_id from outbox_messages order by id`)
  ).rows;
const mail = (to: string, extra: Partial<Parameters<typeof queueEmails>[1][number]> = {}) => ({
  kind: 'test',
  to,
  subject: `For ${to}`,
  text: `Hello ${to}`,
  ...extra,
});
const clear = () => t.db.execute(sql`delete from outbox_messages`);

describe('the outbox', () => {
  it('holds a message exactly when the transaction that queued it commits', async () => {
    await clear();
    await t.db
      .transaction(async (tx) => {
        await queueEmails(tx, [mail('rolled-back@school.test')]);
        throw new Error('the event failed');
      })
      .catch(() => {});
    await t.db.transaction((tx) => queueEmails(tx, [mail('kept@school.test')]));
    expect((await outbox()).map((m) => [m.recipient, m.status])).toEqual([['kept@school.test', 'queued']]);
  });

  it('sends through SMTP with text, HTML, a stable Message-ID and one-click unsubscribe, then never again', async () => {
    await clear();
    const before = smtp.received.length;
    await t.db.transaction((tx) =>
      queueEmails(tx, [mail('ana@school.test', { html: '<p>Hello Ana</p>', unsubscribeUrl: 'https://muster.school.test/unsubscribe?token=abc' })]),
    );
    const senders = createMessageSenders(mailConfig);
    expect(await deliverDueMessages(t.db, senders, clock)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(await deliverDueMessages(t.db, senders, clock)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    senders.close();
    const got = smtp.received.slice(before);
    expect(got).toHaveLength(1);
    const [row] = await outbox();
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    expect(got[0]!.to).toEqual(['ana@school.test']);
    expect(got[0]!.header('Subject')).toBe('For ana@school.test');
    expect(got[0]!.header('Message-ID')).toBe(row!.message_id);
    expect(got[0]!.header('List-Unsubscribe')).toBe('<https://muster.school.test/unsubscribe?token=abc>');
    expect(got[0]!.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(got[0]!.raw).toContain('Hello ana@school.test');
    expect(got[0]!.raw).toContain('<p>Hello Ana</p>');
  });

  it('retries a refused message later with backoff, and gives up at once on a permanent refusal', async () => {
    await clear();
    busy = true;
    await t.db.transaction((tx) => queueEmails(tx, [mail('busy@school.test'), mail('nobody@school.test')]));
    const senders = createMessageSenders(mailConfig);
    expect(await deliverDueMessages(t.db, senders, clock)).toEqual({ sent: 0, retrying: 1, failed: 1 });
    let rows = await outbox();
    expect(rows[0]).toMatchObject({ recipient: 'busy@school.test', status: 'queued', attempts: 1 });
    expect(rows[0]!.last_error).toContain('451');
    expect(new Date(rows[0]!.next_attempt_at).getTime()).toBe(clock.now().getTime() + retryDelayMs(0));
    expect(rows[1]).toMatchObject({ recipient: 'nobody@school.test', status: 'failed', attempts: 1 });
    expect(rows[1]!.last_error).toContain('550');
    // Not due yet: nothing is tried.
    expect(await deliverDueMessages(t.db, senders, clock)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    busy = false;
    clock.advance(retryDelayMs(0));
    expect(await deliverDueMessages(t.db, senders, clock)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    rows = await outbox();
    expect(rows[0]).toMatchObject({ status: 'sent', attempts: 2 });
    senders.close();
  });

  it('waits, never drops, while a channel is not configured', async () => {
    await clear();
    await t.db.transaction((tx) => queueEmails(tx, [mail('later@school.test')]));
    const unconfigured = createMessageSenders({ ...mailConfig, smtp: null });
    expect(unconfigured.email).toBeNull();
    expect(await deliverDueMessages(t.db, unconfigured, clock)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect((await outbox())[0]).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('a crashed worker loses nothing: its claim expires and another worker sends the message once', async () => {
    await clear();
    await t.db.transaction((tx) => queueEmails(tx, [mail('claimed@school.test')]));
    // A worker claimed it and died before sending.
    await t.db.execute(sql`update outbox_messages set claimed_until = ${new Date(clock.now().getTime() + 5 * 60_000).toISOString()}`);
    const senders = createMessageSenders(mailConfig);
    expect((await deliverDueMessages(t.db, senders, clock)).sent).toBe(0);
    clock.advance(5 * 60_000);
    expect((await deliverDueMessages(t.db, senders, clock)).sent).toBe(1);
    senders.close();
  });

  it('two workers running at once send each message exactly once', async () => {
    await clear();
    const before = smtp.received.length;
    const to = Array.from({ length: 30 }, (_, i) => `student${i}@school.test`);
    await t.db.transaction((tx) =>
      queueEmails(
        tx,
        to.map((x) => mail(x)),
      ),
    );
    const a = createMessageSenders(mailConfig);
    const b = createMessageSenders(mailConfig);
    const [ra, rb] = await Promise.all([deliverDueMessages(t.db, a, clock, 5), deliverDueMessages(t.db, b, clock, 5)]);
    a.close();
    b.close();
    expect(ra.sent + rb.sent).toBe(30);
    const got = smtp.received
      .slice(before)
      .flatMap((m) => m.to)
      .sort();
    expect(got).toEqual([...to].sort());
  });

  it('sends SMS through a Twilio-compatible API: form fields and credentials; 5xx retried, 4xx failed', async () => {
    await clear();
    const calls: { auth: string | undefined; body: URLSearchParams }[] = [];
    const provider = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        calls.push({ auth: req.headers.authorization, body: form });
        const to = form.get('To');
        res.statusCode = to === '+15550000500' ? 503 : to === '+15550000400' ? 400 : 201;
        res.end(JSON.stringify({ sid: 'SM1' }));
      });
    });
    await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
    const { port } = provider.address() as AddressInfo;
    const smsConfig = {
      ...mailConfig,
      sms: { apiUrl: `http://127.0.0.1:${port}/2010-04-01/Accounts/AC1/Messages.json`, username: 'AC1', password: 'secret', from: '+15551230000' },
    };
    await t.db.transaction((tx) =>
      queueSms(tx, [
        { kind: 'student_absence', to: '+15557654321', text: 'You were absent today.' },
        { kind: 'student_absence', to: '+15550000500', text: 'Provider down' },
        { kind: 'student_absence', to: '+15550000400', text: 'Bad number' },
      ]),
    );
    const senders = createMessageSenders(smsConfig);
    expect(await deliverDueMessages(t.db, senders, clock)).toEqual({ sent: 1, retrying: 1, failed: 1 });
    senders.close();
    provider.close();
    expect(calls[0]!.auth).toBe(`Basic ${Buffer.from('AC1:secret').toString('base64')}`);
    expect(Object.fromEntries(calls[0]!.body)).toEqual({ To: '+15557654321', From: '+15551230000', Body: 'You were absent today.' });
    expect((await outbox()).map((m) => m.status)).toEqual(['sent', 'queued', 'failed']);
  });
});

describe('Settings › System: delivery', () => {
  it('shows whether each channel acts and what the outbox holds, to administrators only', async () => {
    const admin = await t.signedIn('it_admin');
    const instructor = await t.signedIn('instructor');
    const res = await t.app.inject({ url: '/api/settings/delivery', headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      email: { configured: true, from: 'Muster <muster@school.test>' },
      sms: { configured: false },
      outbox: { queued: 1, sent: 1, failed: 1, lastError: expect.stringContaining('400') },
    });
    expect((await t.app.inject({ url: '/api/settings/delivery', headers: { cookie: instructor.cookie } })).statusCode).toBe(403);
  });

  it('queues a test e-mail to the caller; says so plainly when e-mail is not configured', async () => {
    await clear();
    const admin = await t.signedIn('super_admin');
    const res = await t.app.inject({ method: 'POST', url: '/api/settings/delivery/test-email', headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(202);
    expect((await outbox()).map((m) => m.recipient)).toEqual([admin.email]);

    const bare = await createTestApp({ clock });
    try {
      const who = await bare.signedIn('super_admin');
      const refused = await bare.app.inject({ method: 'POST', url: '/api/settings/delivery/test-email', headers: { cookie: who.cookie } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain('E-mail is not configured');
      const status = await bare.app.inject({ url: '/api/settings/delivery', headers: { cookie: who.cookie } });
      expect(status.json().email).toEqual({ configured: false, from: null });
    } finally {
      await bare.close();
    }
  });
});
