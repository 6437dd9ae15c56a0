import { MAINTENANCE_WINDOW_OVER, type MaintenanceNotice, type MaintenanceNoticeInput } from '../../../common/maintenance.ts';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { emailConfigured, queueEmails, unsubscribeUrl } from '../outbox/service.ts';
import { getSettings, usersWantingEmail } from '../settings/service.ts';
import { deleteNotice, insertNotice, selectCurrentNotices, selectNotice, selectRecentNotices } from './queries.ts';

type Row = Awaited<ReturnType<typeof selectRecentNotices>>[number];
const toNotice = (r: Row): MaintenanceNotice => ({
  id: r.id,
  message: r.message,
  startsAt: r.startsAt.toISOString(),
  endsAt: r.endsAt.toISOString(),
  createdAt: r.createdAt.toISOString(),
  createdByName: r.createdByName,
});

/** The banner's notices: every signed-in staff member sees those not yet over. */
export async function currentNotices(db: DbOrTx, clock: Clock): Promise<MaintenanceNotice[]> {
  return (await selectCurrentNotices(db, clock.now())).map(toNotice);
}

export async function listNotices(db: DbOrTx): Promise<MaintenanceNotice[]> {
  return (await selectRecentNotices(db, 50)).map(toNotice);
}

/** The window in the school's time, as the e-mail says it: "Sat, Nov 28, 10:00 PM – Sun, Nov 29, 2:00 AM (America/Chicago)". */
function windowInWords(startsAt: Date, endsAt: Date, timeZone: string): string {
  const f = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone });
  return `${f.format(startsAt)} – ${f.format(endsAt)} (${timeZone})`;
}

/**
 * super_admin posts a notice: it shows as a banner to signed-in staff until its window ends and, in
 * the same transaction, is queued by e-mail to the staff whose own switches want maintenance notices.
 */
export async function postNotice(
  db: Db,
  deps: { config: Config; cipher: FieldCipher; clock: Clock },
  actor: { id: number },
  input: MaintenanceNoticeInput,
  ip: string | null,
): Promise<MaintenanceNotice> {
  const now = deps.clock.now();
  const startsAt = new Date(input.startsAt);
  const endsAt = new Date(input.endsAt);
  if (endsAt <= now) throw badRequest(MAINTENANCE_WINDOW_OVER, [{ field: 'endsAt', message: MAINTENANCE_WINDOW_OVER }]);
  const settings = await getSettings(db);
  return db.transaction(async (tx) => {
    const id = await insertNotice(tx, { message: input.message, startsAt, endsAt, createdBy: actor.id, createdAt: now });
    await recordAudit(tx, {
      userId: actor.id,
      action: 'Create',
      tableName: 'maintenance_notices',
      recordId: id,
      ipAddress: ip,
      newValues: { message: input.message, startsAt: input.startsAt, endsAt: input.endsAt },
      always: true,
      at: now,
    });
    let emailedTo = 0;
    if (emailConfigured(deps.config)) {
      const recipients = await usersWantingEmail(tx, 'systemMaintenanceNotices');
      const when = windowInWords(startsAt, endsAt, settings.attendance.timeZone);
      const school = settings.system.schoolName.trim();
      await queueEmails(
        tx,
        recipients.map((r) => {
          const unsubscribe = unsubscribeUrl(deps.config, deps.cipher, { userId: r.id, switch: 'systemMaintenanceNotices' });
          const text = `Hello ${r.firstName},\n\nMuster${school ? ` at ${school}` : ''} has scheduled maintenance: ${when}.\n\n${input.message}\n\nMuster: ${publicBaseUrl(deps.config)}\n\nStop maintenance notices: ${unsubscribe}`;
          return { kind: 'maintenance', to: r.email, userId: r.id, subject: `Scheduled maintenance: ${when}`, text, unsubscribeUrl: unsubscribe };
        }),
      );
      emailedTo = recipients.length;
    }
    // Read back by id: among the 50 latest by start, a notice for an earlier window would be missing.
    return { ...toNotice((await selectNotice(tx, id))!), emailedTo };
  });
}

export async function removeNotice(db: Db, actor: { id: number }, id: number, ip: string | null, clock: Clock): Promise<void> {
  await db.transaction(async (tx) => {
    const gone = await deleteNotice(tx, id);
    if (!gone) throw notFound('Maintenance notice');
    await recordAudit(tx, {
      userId: actor.id,
      action: 'Delete',
      tableName: 'maintenance_notices',
      recordId: id,
      ipAddress: ip,
      oldValues: { message: gone.message, startsAt: gone.startsAt, endsAt: gone.endsAt },
      always: true,
      at: clock.now(),
    });
  });
}
