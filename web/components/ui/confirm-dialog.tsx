import type { ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Modal, ModalCancel, ModalFooter } from './dialog.tsx';
import { Spinner } from './spinner.tsx';

type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  onConfirm: () => void;
  isPending?: boolean;
  /** A refusal from the server (e.g. "change the status instead"), shown inside the dialog. */
  error?: string | null;
  destructive?: boolean;
};

/** "Are you sure?" before an action that is hard to undo. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  pendingLabel,
  onConfirm,
  isPending = false,
  error,
  destructive = true,
}: ConfirmDialogProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title} description={children} size="sm">
      {error ? <Alert>{error}</Alert> : null}
      <ModalFooter className={error ? undefined : 'mt-0 border-t-0 pt-0'}>
        <ModalCancel />
        <Button variant={destructive ? 'destructive' : 'primary'} onClick={onConfirm} disabled={isPending}>
          {isPending ? <Spinner className="size-4" /> : null}
          {isPending ? (pendingLabel ?? confirmLabel) : confirmLabel}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
