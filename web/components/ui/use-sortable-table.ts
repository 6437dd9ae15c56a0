import { getCoreRowModel, getSortedRowModel, useReactTable, type SortingState, type TableOptions } from '@tanstack/react-table';
import { useState } from 'react';

type SortableTableOptions<T> = Pick<TableOptions<T>, 'data' | 'columns' | 'getRowId'> & {
  /** The sort the table opens with; a sorted column toggles between ascending and descending only. */
  initialSorting: SortingState;
};

/** A small table sorted in the browser, every row shown (the dashboard's courses, a schedule's roster). */
export function useSortableTable<T>({ data, columns, getRowId, initialSorting }: SortableTableOptions<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  // TanStack Table hands back functions React Compiler cannot memoise; the tables do not rely on it.
  // eslint-disable-next-line react-hooks/incompatible-library
  return useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    enableSortingRemoval: false,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
}
