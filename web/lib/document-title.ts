import { useEffect } from 'react';
import { PRODUCT_NAME } from '../../common/messages.ts';

/** Every screen names itself in the tab and for screen readers: "Students · Muster". */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
