import { sql, type SQL } from 'drizzle-orm';

// The meeting rule in SQL, once. common/hours.ts notAMeeting says it in TypeScript (the ledger,
// manual records, the start check); the reads that filter or count meetings where the rows are say
// it here, and server/modules/schedules/meetings-agree.test.ts checks the two agree on random calendars.

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

/** A class's length in minutes from its times (a class past midnight ends the next day), as the schedule says it. */
export function classMinutes(alias: string): SQL {
  return sql`(extract(epoch from (case when ${col(alias, 'end_time')} > ${col(alias, 'start_time')} then ${col(alias, 'end_time')} - ${col(alias, 'start_time')}
    else ${col(alias, 'end_time')} - ${col(alias, 'start_time')} + interval '24 hours' end)) / 60)::int`;
}
