import { type FormEvent } from 'react';
import type { CurrentUser } from '../../../common/auth.ts';
import { ROLES, ROLE_LABELS } from '../../../common/roles.ts';
import { OWN_ROLE, userInputSchema, type User } from '../../../common/users.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { useFormFeedback } from '../../components/ui/use-form-feedback.ts';
import { notifySuccess } from '../../components/ui/notify.ts';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { useFormValues } from '../../components/ui/use-form-values.ts';
import { useCreateUser, useUpdateUser, type UserCreated } from './users-api.ts';

type Props = {
  /** null: closed; 'new': Add User; a user: Edit User. */
  target: User | 'new' | null;
  actor: CurrentUser;
  onClose: () => void;
  onCreated: (created: UserCreated) => void;
};

export function UserFormDialog({ target, actor, onClose, onCreated }: Props) {
  const isNew = target === 'new';
  return (
    <Modal
      focusFirstField
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      title={isNew ? 'Add User' : 'Edit User'}
      description={isNew ? 'The new user gets a one-time link to choose their password.' : 'Change the name, sign-in details or role of this account.'}
    >
      {target !== null ? <UserForm user={isNew ? null : target} actor={actor} onDone={onClose} onCreated={onCreated} /> : null}
    </Modal>
  );
}

function UserForm({ user, actor, onDone, onCreated }: { user: User | null; actor: CurrentUser; onDone: () => void; onCreated: (c: UserCreated) => void }) {
  const { values, bind } = useFormValues({
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    email: user?.email ?? '',
    username: user?.username ?? '',
    role: user?.role ?? '',
  });
  const { formRef, errors, serverMessage, validate, showRefusal } = useFormFeedback(Object.keys(values));
  const create = useCreateUser();
  const update = useUpdateUser();
  const pending = create.isPending || update.isPending;
  const isSelf = user?.id === actor.id;
  // An IT Administrator may not create or promote a Super Administrator (the server refuses it too).
  const roles = ROLES.filter((r) => actor.role === 'super_admin' || r !== 'super_admin' || user?.role === r);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const data = validate(userInputSchema, values);
    if (!data) return;
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
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label={user ? 'Edit user' : 'Add user'}>
      {serverMessage ? <Alert className="mb-5">{serverMessage}</Alert> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="First name" autoComplete="off" required {...bind('firstName')} error={errors.firstName} />
        <TextField label="Last name" autoComplete="off" required {...bind('lastName')} error={errors.lastName} />
        <TextField label="E-mail" type="email" autoComplete="off" required {...bind('email')} error={errors.email} className="sm:col-span-2" />
        <TextField label="Username" autoComplete="off" required {...bind('username')} error={errors.username} />
        <SelectField label="Role" required {...bind('role')} error={errors.role} disabled={isSelf} hint={isSelf ? OWN_ROLE : undefined}>
          <option value="" disabled>
            Choose a role
          </option>
          {roles.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </SelectField>
      </div>
      <ModalFooter>
        <ModalCancel />
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner className="size-4" /> : null}
          {user ? 'Save changes' : 'Create user'}
        </Button>
      </ModalFooter>
    </form>
  );
}
