import { sql, type SQL } from 'drizzle-orm';

// The meeting rule in SQL, once. common/meeting-rule.ts notAMeeting says it in TypeScript (the
// ledger, manual records, the start check); the reads that filter or count meetings where the rows
// are say it here, and server/modules/schedules/meetings-agree.test.ts checks the two agree on
// random calendars.

const col = (alias: string, name: string) => sql.raw(`${alias}.${name}`);

/**
 * Whether the schedule `alias` meets on the date `date` (an SQL date): a make-up date always;
 * otherwise an active schedule on its day of the week, within its course dates, not on one of its holidays.
 */
export function scheduleMeetsOn(alias: string, date: SQL): SQL {
  return sql`(${date} = any(${col(alias, 'makeup_dates')})
    or (${col(alias, 'is_active')} and extract(dow from ${date})::int = ${col(alias, 'day_of_week')}
        and ${date} between ${col(alias, 'course_start_date')} and ${col(alias, 'course_end_date')}
        and not (${date} = any(coalesce(${col(alias, 'holiday_exceptions')}, '{}')))))`;
}

/** How many days in [from, to] (SQL dates) the schedule `alias` meets, make-up dates after its course end included. */
export function meetingCountBetween(alias: string, from: SQL, to: SQL): SQL {
  return sql`(select count(*)::int
      from generate_series(greatest(${from}, least(${col(alias, 'course_start_date')}, (select min(m) from unnest(${col(alias, 'makeup_dates')}) m))),
                           least(${to}, greatest(${col(alias, 'course_end_date')}, (select max(m) from unnest(${col(alias, 'makeup_dates')}) m))),
                           interval '1 day') g(d)
     where ${scheduleMeetsOn(alias, sql`g.d::date`)})`;
}

/**
 * A class's scheduled minutes from its times (a class past midnight ends the next day) less its
 * scheduled breaks (`breaks` jsonb [{start, end}], each placed after the class start and cut to the
 * class), as server/modules/attendance/rules.ts scheduledMinutes says it; meetings-agree.test.ts checks.
 */
export function classMinutes(alias: string): SQL {
  const start = col(alias, 'start_time');
  const minute = (time: SQL) => sql`(extract(epoch from ${time}) / 60)::int`;
  const length = sql`(case when ${col(alias, 'end_time')} > ${start} then ${minute(sql`${col(alias, 'end_time')} - ${start}`)}
    else ${minute(sql`${col(alias, 'end_time')} - ${start} + interval '24 hours'`)} end)`;
  // Minutes from the class start to the break's start, and the break's length, both within a day.
  const from = sql`(((${minute(sql`(b.value->>'start')::time`)} - ${minute(start)}) % 1440 + 1440) % 1440)`;
  const span = sql`(((${minute(sql`(b.value->>'end')::time`)} - ${minute(sql`(b.value->>'start')::time`)}) % 1440 + 1440) % 1440)`;
  return sql`(${length} - coalesce((select sum(greatest(0, least(${from} + ${span}, ${length}) - ${from}))
      from jsonb_array_elements(${col(alias, 'breaks')}) b), 0))::int`;
}
