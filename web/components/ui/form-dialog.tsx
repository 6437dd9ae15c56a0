import type { FormEventHandler, ReactNode, Ref } from 'react';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Modal, ModalCancel, ModalFooter } from './dialog.tsx';
import { Spinner } from './spinner.tsx';

type FormDialogProps<T> = {
  /** null: closed; 'new': the Add dialog; a record: the Edit dialog. */
  target: T | 'new' | null;
  onClose: () => void;
  titles: { add: string; edit: string };
  /** Read out with the title; a function when Add and Edit say different things. */
  description: string | ((isNew: boolean) => string);
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** The form, given the record to edit (null to add). It mounts afresh each time the dialog opens. */
  children: (record: T | null) => ReactNode;
};

/** The Add/Edit dialog of a record screen: a modal that starts in its first field. */
export function FormDialog<T>({ target, onClose, titles, description, size = 'md', children }: FormDialogProps<T>) {
  const isNew = target === 'new';
  return (
    <Modal
      focusFirstField
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      title={isNew ? titles.add : titles.edit}
      description={typeof description === 'function' ? description(isNew) : description}
      size={size}
    >
      {target !== null ? children(target === 'new' ? null : target) : null}
    </Modal>
  );
}

type FormDialogBodyProps = {
  formRef: Ref<HTMLFormElement>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The form's accessible name ("Add course", "Edit course"). */
  label: string;
  /** A refusal that names no field of the form, shown above it. */
  serverMessage: string | null;
  pending: boolean;
  submitLabel: string;
  /** The fields, laid out two to a row on wider screens. */
  children: ReactNode;
};

/** The form inside a FormDialog: refusal message, fields, then Cancel and the submit button. */
export function FormDialogBody({ formRef, onSubmit, label, serverMessage, pending, submitLabel, children }: FormDialogBodyProps) {
  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label={label}>
      {serverMessage ? <Alert className="mb-5">{serverMessage}</Alert> : null}
      <div className="grid gap-5 sm:grid-cols-2">{children}</div>
      <ModalFooter>
        <ModalCancel />
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner className="size-4" /> : null}
          {submitLabel}
        </Button>
      </ModalFooter>
    </form>
  );
}
