// Only for features/courses/bulk-import-dialog.tsx, which another change rewrites or deletes;
// the programs list lives in lib/shared-queries.ts. Delete this file with it.
export { usePrograms } from '../../lib/shared-queries.ts';
