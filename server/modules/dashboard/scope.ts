import { sql, type SQL } from 'drizzle-orm';
import type { Role } from '../../../common/roles.ts';

/** Instructors see their own classes; support staff and admins the whole school. */
export type Scope = { instructorId: number | null };
export const scopeFor = (user: { id: number; role: Role }): Scope => ({ instructorId: user.role === 'instructor' ? user.id : null });

/** A condition on a `schedules` alias limiting rows to the scope. */
export function scheduleScope(scope: Scope, alias = 's'): SQL {
  return scope.instructorId == null ? sql`true` : sql`${sql.identifier(alias)}.instructor_id = ${scope.instructorId}`;
}

/** The viewer a scope stands for, for services that take a user (admins see every class). */
export function scopeViewer(scope: Scope): { id: number; role: Role } {
  return scope.instructorId == null ? { id: 0, role: 'super_admin' } : { id: scope.instructorId, role: 'instructor' };
}
