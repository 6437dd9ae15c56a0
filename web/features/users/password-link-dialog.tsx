import { Check, Copy } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalFooter } from '../../components/ui/dialog.tsx';
import { notifySuccess } from '../../components/ui/notify.ts';
import { toast } from '../../lib/toast.ts';
import { formatDateTime } from '../../lib/format.ts';
import { fullName } from './user-columns.tsx';
import type { UserCreated } from './users-api.ts';

/**
 * Shows a one-time set-password link for the admin to hand over (the server never e-mails it).
 * It is shown once: closing the dialog forgets it; a new one can be issued from the table.
 */
export function PasswordLinkDialog({ link, onClose }: { link: UserCreated | null; onClose: () => void }) {
  return (
    <Modal
      open={link !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Set-password link"
      description={link ? `Give this link to ${fullName(link.user)}. It works once and expires ${formatDateTime(link.setPasswordExpiresAt)}.` : undefined}
    >
      {link ? <LinkBody url={link.setPasswordUrl} onClose={onClose} /> : null}
    </Modal>
  );
}

function LinkBody({ url, onClose }: { url: string; onClose: () => void }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      notifySuccess('Link copied', 'Paste it in a message to the new user.');
    } catch {
      inputRef.current?.select();
      toast({ title: 'Copy failed', description: 'The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.' });
    }
  };

  return (
    <>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Link
      </label>
      <div className="mt-1.5 flex gap-2">
        <input
          id={id}
          ref={inputRef}
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          className="block h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-xs text-slate-900"
        />
        <Button variant="secondary" onClick={() => void copy()}>
          {copied ? <Check aria-hidden="true" className="size-4 text-emerald-700" /> : <Copy aria-hidden="true" className="size-4" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p className="mt-3 text-sm text-slate-600">For privacy, the link is not shown again once you close this window.</p>
      <ModalFooter>
        <Button onClick={onClose}>Done</Button>
      </ModalFooter>
    </>
  );
}
