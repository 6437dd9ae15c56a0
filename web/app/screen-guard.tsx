import type { ReactNode } from 'react';
import { ACCESS_DENIED } from '../../common/messages.ts';
import { AccessDenied } from '../components/ui/access-denied.tsx';
import { useSignedInUser } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/document-title.ts';
import { SCREEN_ACCESS, type ScreenKey } from '../lib/screen-access.ts';

/** Applies a screen's SPEC §6 check; a role without access sees the Access Denied notice instead. */
export function ScreenGuard({ access, children }: { access: ScreenKey; children: ReactNode }) {
  const user = useSignedInUser();
  const rule = SCREEN_ACCESS[access];
  const allowed = rule.allows(user.role);
  if (!allowed) return <DeniedScreen message={rule.deniedMessage(user.role)} />;
  return children;
}

function DeniedScreen({ message }: { message: string }) {
  useDocumentTitle(ACCESS_DENIED);
  return <AccessDenied message={message} />;
}
