// The four staff roles of SPEC §6 and their on-screen labels.
export const ROLES = ['super_admin', 'it_admin', 'instructor', 'support_staff'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  super_admin: 'Super Administrator',
  it_admin: 'IT Administrator',
  instructor: 'Instructor',
  support_staff: 'Support Staff',
};

// The role questions the server's access rules (server/modules/access) and the screens both ask,
// answered here once: lint forbids comparing roles anywhere else.

/** Super Administrator or IT Administrator. */
export const isAdministrator = (user: { role: Role }): boolean => user.role === 'super_admin' || user.role === 'it_admin';
export const isSuperAdmin = (user: { role: Role }): boolean => user.role === 'super_admin';
export const isInstructor = (user: { role: Role }): boolean => user.role === 'instructor';

/** Who may supervise a make-up session: instructors and administrators. */
export const maySuperviseMakeUps = (staff: { role: Role }): boolean => isInstructor(staff) || isAdministrator(staff);

/** Whether the actor may give, take or act on an account of this role: only a Super Administrator touches a Super Administrator. */
export const mayManageRole = (actor: { role: Role }, role: Role): boolean => isSuperAdmin(actor) || role !== 'super_admin';
