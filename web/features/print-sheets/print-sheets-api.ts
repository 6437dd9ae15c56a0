import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { attendanceRowSchema } from '../../../common/attendance.ts';
import { scheduleSchema } from '../../../common/schedules.ts';
import { apiParse } from '../../lib/api.ts';

// The sheet reads what Take Attendance reads: the class (GET /api/schedules/:id) and one meeting's
// roster merged with its records (GET /api/attendance/schedule/:id?date=). Both refuse an
// instructor another instructor's class (403), so the sheet is scoped as the screen is.

/** One class: course, instructor, days and times, room. */
export function useSheetSchedule(scheduleId: number | null) {
  return useQuery({
    queryKey: ['/api/schedules', scheduleId],
    queryFn: () => apiParse(scheduleSchema, 'GET', `/api/schedules/${scheduleId}`),
    enabled: scheduleId != null,
  });
}

/** Every rostered student of one meeting, with the record of that meeting where there is one. */
export function useSheetMeeting(scheduleId: number | null, date: string) {
  return useQuery({
    queryKey: ['/api/attendance/schedule', scheduleId, { date }],
    queryFn: () => apiParse(z.array(attendanceRowSchema), 'GET', `/api/attendance/schedule/${scheduleId}?${new URLSearchParams({ date }).toString()}`),
    enabled: scheduleId != null && /^\d{4}-\d{2}-\d{2}$/.test(date),
  });
}
