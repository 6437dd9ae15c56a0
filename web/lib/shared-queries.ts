import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { courseSchema } from '../../common/courses.ts';
import { programSchema } from '../../common/programs.ts';
import { scheduleSchema } from '../../common/schedules.ts';
import { settingsSchema } from '../../common/settings.ts';
import { studentSchema } from '../../common/students.ts';
import { userSchema } from '../../common/users.ts';
import { apiParse } from './api.ts';
import { apiParsePage } from './api-page.ts';

/**
 * What more than one feature reads (the schedule form picks courses and instructors, the
 * take-attendance screen picks schedules, the roster adds students, two forms pick a program,
 * the uploader obeys the upload-size setting). Features do not import each other, so these
 * queries and their keys live here, once; the features' own API files import the keys to refresh
 * them after a change. Everything else a feature reads is in its own `*-api.ts`.
 */

export const PROGRAMS_KEY = ['/api/programs'] as const;
export const SETTINGS_KEY = ['/api/settings'] as const;
export const COURSES_KEY = ['/api/courses'] as const;
export const USERS_KEY = ['/api/users'] as const;
/** Prefix of every schedule query: the lists, one schedule's roster (see features/schedules). */
export const SCHEDULES_KEY = ['/api/schedules'] as const;
/** Prefix of every student list query (any search, sort or page). */
export const STUDENTS_KEY = ['/api/students'] as const;
/** Prefix of the Hours view's queries: a make-up session on the student page changes them. */
export const HOURS_KEY = ['/api/hours'] as const;

/** GET /api/settings: the school's settings (the Settings screen; the upload limit in force). */
export function useSettings() {
  return useQuery({ queryKey: SETTINGS_KEY, queryFn: () => apiParse(settingsSchema, 'GET', '/api/settings') });
}

/** GET /api/programs: the program choices of the student and course forms. */
export function usePrograms() {
  return useQuery({ queryKey: PROGRAMS_KEY, queryFn: () => apiParse(z.array(programSchema), 'GET', '/api/programs') });
}

/** GET /api/courses: the whole catalog (hundreds at most), searched and sorted in the browser. */
export function useCourses() {
  return useQuery({ queryKey: COURSES_KEY, queryFn: () => apiParse(z.array(courseSchema), 'GET', '/api/courses') });
}

/**
 * GET /api/users: every staff account (a school has tens, not thousands: filtered in the browser).
 * `enabled: false` for a role that may not read it (the make-up supervisor choice of an instructor).
 */
export function useUsers({ enabled = true } = {}) {
  return useQuery({ queryKey: USERS_KEY, queryFn: () => apiParse(z.array(userSchema), 'GET', '/api/users'), enabled });
}

/**
 * GET /api/schedules?search= (server-side search over course, instructor, room and ids).
 * Instructors get their own schedules, administrators the whole school (the server decides).
 */
export function useSchedules(search = '') {
  return useQuery({
    queryKey: [...SCHEDULES_KEY, { search }],
    queryFn: () => apiParse(z.array(scheduleSchema), 'GET', search ? `/api/schedules?${new URLSearchParams({ search }).toString()}` : '/api/schedules'),
    placeholderData: keepPreviousData,
  });
}

export type StudentListParams = {
  search?: string;
  /** The Students screen's filters (absent: every program, every status). */
  programId?: number;
  status?: string;
  sort?: string;
  order?: 'asc' | 'desc';
  page?: number;
  pageSize?: number;
};

/** GET /api/students with server-side search, sort and paging; X-Total-Count carries the total. */
export function useStudents(params: StudentListParams) {
  return useQuery({
    queryKey: [...STUDENTS_KEY, params],
    queryFn: () => {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(params)) {
        if (value !== undefined && value !== '') query.set(key, String(value));
      }
      return apiParsePage(z.array(studentSchema), `/api/students?${query.toString()}`);
    },
    // Keep the current page on screen while the next one loads (no flash of an empty table).
    placeholderData: keepPreviousData,
  });
}
