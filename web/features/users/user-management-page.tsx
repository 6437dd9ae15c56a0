import { UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { ROLES, ROLE_LABELS } from '../../../common/roles.ts';
import type { User } from '../../../common/users.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { TablePagination } from '../../components/ui/table-pagination.tsx';
import { Toolbar, ToolbarSelect } from '../../components/ui/toolbar.tsx';
import { useSearchableTable } from '../../components/ui/use-searchable-table.ts';
import { readErrorBody } from '../../lib/api.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { PasswordLinkDialog } from './password-link-dialog.tsx';
import { fullName, userColumns } from './user-columns.tsx';
import { UserFormDialog } from './user-form-dialog.tsx';
import { useUsers } from '../../lib/shared-queries.ts';
import { useDeactivateUser, useIssuePasswordLink, useReactivateUser, useResetTwoFactor, type UserCreated } from './users-api.ts';
import { can } from '../../../common/permissions.ts';

/** /users (SPEC §2): staff accounts, created with a set-password link, edited, deactivated. */
export function UserManagementPage() {
  const actor = useSignedInUser();
  const users = useUsers();
  const [roleFilter, setRoleFilter] = useState('');
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [link, setLink] = useState<UserCreated | null>(null);
  const [deactivating, setDeactivating] = useState<User | null>(null);
  const deactivate = useDeactivateUser();
  const reactivate = useReactivateUser();
  const issueLink = useIssuePasswordLink();
  const resetTwoFactor = useResetTwoFactor();
  const [resettingTwoFactor, setResettingTwoFactor] = useState<User | null>(null);
  const mayResetTwoFactor = can(actor.role, 'users:reset-two-factor');

  const columns = useMemo(
    () =>
      userColumns(actor, {
        onEdit: setEditing,
        onDeactivate: (u) => {
          deactivate.reset();
          setDeactivating(u);
        },
        onReactivate: (u) =>
          reactivate.mutate(u.id, {
            onSuccess: () => notifySuccess('User reactivated', `${fullName(u)} can sign in again.`),
            onError: (e) => notifyFailure(e, readErrorBody(e).message ?? 'Failed to update user. Please try again.'),
          }),
        onIssueLink: (u) =>
          issueLink.mutate(u.id, {
            onSuccess: setLink,
            onError: (e) => notifyFailure(e, readErrorBody(e).message ?? 'Failed to create a set-password link. Please try again.'),
          }),
        onResetTwoFactor: mayResetTwoFactor
          ? (u) => {
              resetTwoFactor.reset();
              setResettingTwoFactor(u);
            }
          : undefined,
      }),
    // The mutation objects change identity every render; their mutate functions do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [actor, deactivate.reset, reactivate.mutate, issueLink.mutate, resetTwoFactor.reset, mayResetTwoFactor],
  );
  const data = useMemo(() => (users.data ?? []).filter((u) => !roleFilter || u.role === roleFilter), [users.data, roleFilter]);

  const { table, search, setSearch } = useSearchableTable({ data, columns, initialSorting: [{ id: 'name', desc: false }] });

  const deactivateError = deactivate.isError ? (readErrorBody(deactivate.error).message ?? 'Failed to deactivate user. Please try again.') : null;

  return (
    <>
      <PageHeader
        title="User Management"
        subtitle="Staff accounts, roles and access"
        actions={
          <Button onClick={() => setEditing('new')} icon={UserPlus}>
            Add User
          </Button>
        }
      />
      {users.isError ? <Alert className="mb-6">The user list could not be loaded. Reload the page to try again.</Alert> : null}
      <Card className="overflow-hidden">
        <Toolbar>
          <SearchInput
            label="Search users"
            placeholder="Search by name, e-mail, username or role"
            value={search}
            onChange={setSearch}
            className="sm:max-w-sm sm:flex-1"
          />
          <ToolbarSelect id="user-role-filter" label="Role" value={roleFilter} onChange={setRoleFilter}>
            <option value="">All roles</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </ToolbarSelect>
        </Toolbar>
        <DataTable
          table={table}
          caption="Staff accounts"
          isLoading={users.isLoading}
          empty={search || roleFilter ? 'No users match your search.' : 'No users yet.'}
          cardsOnPhone
        />
        <TablePagination table={table} noun="users" />
      </Card>

      <UserFormDialog
        target={editing}
        actor={actor}
        onClose={() => setEditing(null)}
        onCreated={(created) => {
          setEditing(null);
          setLink(created);
        }}
      />
      <PasswordLinkDialog link={link} onClose={() => setLink(null)} />
      <ConfirmDialog
        open={deactivating !== null}
        onOpenChange={(open) => !open && setDeactivating(null)}
        title={`Deactivate ${deactivating ? fullName(deactivating) : 'user'}?`}
        confirmLabel="Deactivate"
        pendingLabel="Deactivating…"
        isPending={deactivate.isPending}
        error={deactivateError}
        onConfirm={() => {
          if (!deactivating) return;
          const u = deactivating;
          deactivate.mutate(u.id, {
            onSuccess: () => {
              notifySuccess('User deactivated', `${fullName(u)} can no longer sign in.`);
              setDeactivating(null);
            },
            onError: (e) => notifyFailure(e, 'Failed to deactivate user. Please try again.'),
          });
        }}
      >
        They are signed out and can no longer sign in. Their attendance and audit history stays attributed to them, and you can reactivate the account later.
      </ConfirmDialog>
      <ConfirmDialog
        open={resettingTwoFactor !== null}
        onOpenChange={(open) => !open && setResettingTwoFactor(null)}
        title={`Reset two-factor authentication for ${resettingTwoFactor ? fullName(resettingTwoFactor) : 'user'}?`}
        confirmLabel="Reset"
        pendingLabel="Resetting…"
        isPending={resetTwoFactor.isPending}
        error={resetTwoFactor.isError ? (readErrorBody(resetTwoFactor.error).message ?? 'Failed to reset. Please try again.') : null}
        onConfirm={() => {
          if (!resettingTwoFactor) return;
          const u = resettingTwoFactor;
          resetTwoFactor.mutate(u.id, {
            onSuccess: () => {
              notifySuccess('Two-factor reset', `${fullName(u)} is signed out and sets up an authenticator at the next sign-in.`);
              setResettingTwoFactor(null);
            },
          });
        }}
      >
        Use this when they lost their phone and their recovery codes. Their authenticator and recovery codes stop working, they are signed out everywhere, and
        they set up two-factor again at their next sign-in. This is recorded in the audit log.
      </ConfirmDialog>
    </>
  );
}
