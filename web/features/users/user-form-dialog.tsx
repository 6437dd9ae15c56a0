import type { CurrentUser } from '../../../common/auth.ts';
import { ROLES, ROLE_LABELS, mayManageRole } from '../../../common/roles.ts';
import { OWN_ROLE, userInputSchema, type User } from '../../../common/users.ts';
import { FormDialog, FormDialogBody } from '../../components/ui/form-dialog.tsx';
import { notifySuccess } from '../../components/ui/notify.ts';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { textValues, useRecordForm } from '../../components/ui/use-record-form.ts';
import { useCreateUser, useUpdateUser, type UserCreated } from './users-api.ts';

type Props = {
  /** null: closed; 'new': Add User; a user: Edit User. */
  target: User | 'new' | null;
  actor: CurrentUser;
  onClose: () => void;
  onCreated: (created: UserCreated) => void;
};

export function UserFormDialog({ target, actor, onClose, onCreated }: Props) {
  return (
    <FormDialog
      target={target}
      onClose={onClose}
      titles={{ add: 'Add User', edit: 'Edit User' }}
      description={(isNew) =>
        isNew ? 'The new user gets a one-time link to choose their password.' : 'Change the name, sign-in details or role of this account.'
      }
    >
      {(user) => <UserForm user={user} actor={actor} onDone={onClose} onCreated={onCreated} />}
    </FormDialog>
  );
}

function UserForm({ user, actor, onDone, onCreated }: { user: User | null; actor: CurrentUser; onDone: () => void; onCreated: (c: UserCreated) => void }) {
  const { formRef, bind, errorOf, serverMessage, submit, showRefusal } = useRecordForm({
    defaultValues: textValues(user, ['firstName', 'lastName', 'email', 'username', 'role']),
    schema: userInputSchema,
    toCandidate: (v) => v,
  });
  const create = useCreateUser();
  const update = useUpdateUser();
  const pending = create.isPending || update.isPending;
  const isSelf = user?.id === actor.id;
  // An IT Administrator may not create or promote a Super Administrator (the server refuses it too).
  const roles = ROLES.filter((r) => mayManageRole(actor, r) || user?.role === r);

  const onSubmit = submit((data) => {
    if (user) {
      update.mutate(
        { id: user.id, input: data },
        {
          onSuccess: () => {
            notifySuccess('User updated');
            onDone();
          },
          onError: (e) => showRefusal(e, 'Failed to update user. Please try again.'),
        },
      );
    } else {
      create.mutate(data, {
        onSuccess: (created) => {
          notifySuccess('User created', `${created.user.firstName} ${created.user.lastName} can now set a password.`);
          onCreated(created);
        },
        onError: (e) => showRefusal(e, 'Failed to create user. Please try again.'),
      });
    }
  });

  return (
    <FormDialogBody
      formRef={formRef}
      onSubmit={onSubmit}
      label={user ? 'Edit user' : 'Add user'}
      serverMessage={serverMessage}
      pending={pending}
      submitLabel={user ? 'Save changes' : 'Create user'}
    >
      <TextField label="First name" autoComplete="off" required {...bind('firstName')} error={errorOf('firstName')} />
      <TextField label="Last name" autoComplete="off" required {...bind('lastName')} error={errorOf('lastName')} />
      <TextField label="E-mail" type="email" autoComplete="off" required {...bind('email')} error={errorOf('email')} className="sm:col-span-2" />
      <TextField label="Username" autoComplete="off" required {...bind('username')} error={errorOf('username')} />
      <SelectField label="Role" required {...bind('role')} error={errorOf('role')} disabled={isSelf} hint={isSelf ? OWN_ROLE : undefined}>
        <option value="" disabled>
          Choose a role
        </option>
        {roles.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </SelectField>
    </FormDialogBody>
  );
}
