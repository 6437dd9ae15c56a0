import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { leaveSchema, type LeaveInput } from '../../../common/compliance.ts';
import { studentHoursSchema, studentRecordSchema } from '../../../common/hours.ts';
import { makeUpSessionSchema, type MakeUpInput } from '../../../common/make-ups.ts';
import { openingBalanceSchema, type OpeningBalanceInput } from '../../../common/opening-balances.ts';
import { studentSchema, type StudentInput } from '../../../common/students.ts';
import { HOURS_KEY, SCHEDULES_KEY, STUDENTS_KEY, type StudentListParams } from '../../lib/shared-queries.ts';
import { downloadFile, localDate } from '../../lib/download.ts';
import { ApiError, apiParse, apiRequest } from '../../lib/api.ts';
import { useRefreshingMutation } from '../../lib/use-refreshing-mutation.ts';

/** The Students screen's changes; the list itself is lib/shared-queries.ts (the roster reads it too). */
function useStudentMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  // Rosters change too: a new enrolled student joins their program's schedules.
  return useRefreshingMutation(fn, [STUDENTS_KEY, SCHEDULES_KEY]);
}

export const useCreateStudent = () => useStudentMutation((input: StudentInput) => apiParse(studentSchema, 'POST', '/api/students', input));

export const useUpdateStudent = () =>
  useStudentMutation(({ id, input }: { id: number; input: StudentInput }) => apiParse(studentSchema, 'PUT', `/api/students/${id}`, input));

/**
 * GET /api/students/export: the list as filtered and sorted on screen, every page, as CSV (no SSN);
 * saved under the server's name (students_export_{date}.csv).
 */
export function useExportStudents() {
  return useMutation({
    mutationFn: (params: Omit<StudentListParams, 'page' | 'pageSize'>) =>
      downloadFile(`/api/students/export${queryString(params)}`, { fallbackName: `students_export_${localDate()}.csv` }),
  });
}

/** 204, or 409 when the student has attendance history (change the status instead). */
export const useDeleteStudent = () => useStudentMutation((id: number) => apiRequest('DELETE', `/api/students/${id}`).then(() => undefined));

// ---- The student page ----

/** Prefix of everything the student page reads about one student (profile, ledger, make-up, records). */
const studentKey = (id: number) => [...STUDENTS_KEY, id] as const;

/** `?a=1&b=2` of the given values, leaving out empty ones. */
function queryString(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') q.set(key, String(value));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** GET /api/students/:id: 404 when it does not exist or is not the reader's to see. */
export function useStudent(id: number) {
  return useQuery({ queryKey: [...studentKey(id), 'profile'], queryFn: () => apiParse(studentSchema, 'GET', `/api/students/${id}`) });
}

type HoursParams = { asOf?: string; from?: string; to?: string };

/** GET /api/students/:id/hours: the ledger as of a date, with the days from–to. */
export function useStudentHours(id: number, params: HoursParams, enabled = true) {
  return useQuery({
    queryKey: [...studentKey(id), 'hours', params],
    queryFn: () => apiParse(studentHoursSchema, 'GET', `/api/students/${id}/hours${queryString(params)}`),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useMakeUpSessions(id: number) {
  return useQuery({
    queryKey: [...studentKey(id), 'make-up-sessions'],
    queryFn: () => apiParse(z.array(makeUpSessionSchema), 'GET', `/api/students/${id}/make-up-sessions`),
  });
}

/** Make-up time changes the ledger, this student's and the program's Hours view. */
const useLedgerMutation = <TVars, TResult>(id: number, fn: (vars: TVars) => Promise<TResult>) => useRefreshingMutation(fn, [studentKey(id), HOURS_KEY]);

export const useRecordMakeUp = (id: number) =>
  useLedgerMutation(id, (input: MakeUpInput) => apiParse(makeUpSessionSchema, 'POST', `/api/students/${id}/make-up-sessions`, input));

/** The reason is kept in the audit log. */
export const useDeleteMakeUp = (id: number) =>
  useLedgerMutation(id, ({ sessionId, reason }: { sessionId: number; reason: string }) =>
    apiRequest('DELETE', `/api/students/${id}/make-up-sessions/${sessionId}`, { reason }).then(() => undefined),
  );

/** GET /api/students/:id/opening-balance: the hours before Muster kept attendance; null when none was entered (404). */
export function useOpeningBalance(id: number) {
  return useQuery({
    queryKey: [...studentKey(id), 'opening-balance'],
    queryFn: () =>
      apiParse(openingBalanceSchema, 'GET', `/api/students/${id}/opening-balance`).catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }),
  });
}

/** An opening balance changes the ledger from its date on. */
export const useSaveOpeningBalance = (id: number) =>
  useLedgerMutation(id, (input: OpeningBalanceInput) => apiParse(openingBalanceSchema, 'PUT', `/api/students/${id}/opening-balance`, input));

/** GET /api/students/:id/leaves: the student's leaves of absence. */
export function useLeaves(id: number) {
  return useQuery({ queryKey: [...studentKey(id), 'leaves'], queryFn: () => apiParse(z.array(leaveSchema), 'GET', `/api/students/${id}/leaves`) });
}

/** A leave changes the ledger (its days are not scheduled), the status and the Hours view. */
export const useRecordLeave = (id: number) => useLedgerMutation(id, (input: LeaveInput) => apiParse(leaveSchema, 'POST', `/api/students/${id}/leaves`, input));
export const useUpdateLeave = (id: number) =>
  useLedgerMutation(id, ({ leaveId, endDate }: { leaveId: number; endDate: string }) =>
    apiParse(leaveSchema, 'PUT', `/api/students/${id}/leaves/${leaveId}`, { endDate }),
  );

/** GET /api/students/:id/records?from&to: the student's attendance records, with a `corrected` mark. */
export function useStudentRecords(id: number, params: { from?: string; to?: string }, enabled = true) {
  return useQuery({
    queryKey: [...studentKey(id), 'records', params],
    queryFn: () => apiParse(z.array(studentRecordSchema), 'GET', `/api/students/${id}/records${queryString(params)}`),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET /api/attendance/:id/history: a record as first captured and every change since. */
