import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { KeyRound, Pencil, ShieldOff, UserCheck, UserX } from 'lucide-react';
import type { CurrentUser } from '../../../common/auth.ts';
import { ROLE_LABELS, mayManageRole } from '../../../common/roles.ts';
import type { User } from '../../../common/users.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { IconButton } from '../../components/ui/icon-button.tsx';
import { EmailText } from '../../components/ui/email-text.tsx';
import { formatDateTime } from '../../lib/format.ts';

type UserActions = {
  onEdit: (user: User) => void;
  onDeactivate: (user: User) => void;
  onReactivate: (user: User) => void;
  onIssueLink: (user: User) => void;
  /** Only where the actor may reset two-factor enrolments (super_admin). */
  onResetTwoFactor?: (user: User) => void;
};

export const fullName = (u: Pick<User, 'firstName' | 'lastName'>) => `${u.firstName} ${u.lastName}`.trim();

/** The server's guard rail, mirrored to hide what would be refused: an IT Administrator cannot touch a Super Administrator. */
function canManageUser(actor: CurrentUser, target: Pick<User, 'role'>): boolean {
  return mayManageRole(actor, target.role);
}

const formatLastLogin = (iso: string | null): string => (iso ? formatDateTime(iso) : 'Never');

const col = createColumnHelper<User>();

export function userColumns(actor: CurrentUser, actions: UserActions): ColumnDef<User, never>[] {
  const columns = [
    col.accessor('id', { header: 'ID', meta: { className: 'w-px tabular-nums text-slate-600' } }),
    col.accessor((u) => fullName(u), {
      id: 'name',
      header: 'Name',
      meta: { rowHeader: true },
      cell: ({ row, getValue }) => (
        <span className="font-medium whitespace-nowrap text-slate-900">
          {getValue()}
          {row.original.id === actor.id ? <span className="ml-1.5 text-xs font-normal text-slate-600">(you)</span> : null}
        </span>
      ),
    }),
    col.accessor('email', { header: 'E-mail', cell: ({ getValue }) => <EmailText address={getValue()} /> }),
    col.accessor((u) => u.username ?? '', {
      id: 'username',
      header: 'Username',
      cell: ({ getValue }) => getValue() || <span className="text-slate-500">—</span>,
    }),
    col.accessor((u) => ROLE_LABELS[u.role], { id: 'role', header: 'Role', cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> }),
    col.accessor((u) => (u.isActive ? 'Active' : 'Inactive'), {
      id: 'status',
      header: 'Status',
      cell: ({ getValue }) => <Badge tone={getValue() === 'Active' ? 'green' : 'slate'}>{getValue()}</Badge>,
    }),
    col.accessor((u) => u.lastLogin ?? '', {
      id: 'lastLogin',
      header: 'Last login',
      sortDescFirst: true,
      enableGlobalFilter: false,
      cell: ({ row }) => formatLastLogin(row.original.lastLogin),
    }),
    col.display({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: 'w-px text-right' },
      cell: ({ row }) => {
        const u = row.original;
        if (!canManageUser(actor, u)) return null;
        const name = fullName(u);
        return (
          <div className="flex justify-end gap-0.5">
            <IconButton icon={Pencil} label={`Edit ${name}`} onClick={() => actions.onEdit(u)} />
            <IconButton icon={KeyRound} label={`New set-password link for ${name}`} onClick={() => actions.onIssueLink(u)} disabled={!u.isActive} />
            {actions.onResetTwoFactor ? (
              <IconButton icon={ShieldOff} label={`Reset two-factor authentication for ${name}`} onClick={() => actions.onResetTwoFactor!(u)} />
            ) : null}
            {u.id === actor.id ? null : u.isActive ? (
              <IconButton icon={UserX} tone="danger" label={`Deactivate ${name}`} onClick={() => actions.onDeactivate(u)} />
            ) : (
              <IconButton icon={UserCheck} label={`Reactivate ${name}`} onClick={() => actions.onReactivate(u)} />
            )}
          </div>
        );
      },
    }),
  ];
  return columns as ColumnDef<User, never>[];
}
