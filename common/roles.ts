// The four staff roles of SPEC §6 and their on-screen labels.
export const ROLES = ['super_admin', 'it_admin', 'instructor', 'support_staff'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  super_admin: 'Super Administrator',
  it_admin: 'IT Administrator',
  instructor: 'Instructor',
  support_staff: 'Support Staff',
};
