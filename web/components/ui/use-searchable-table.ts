import {
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import { useState } from 'react';

type SearchableTableOptions<T> = {
  data: T[];
  columns: ColumnDef<T, never>[];
  /** The sort a screen opens with; a sorted column toggles between ascending and descending only. */
  initialSorting: SortingState;
  getRowId?: (row: T) => string;
  columnVisibility?: VisibilityState;
};

/**
 * A client-side list table (the courses and users screens): one search box filtering every column,
 * sortable headers, 25 rows a page. Returns the table and the search text for the toolbar.
 */
export function useSearchableTable<T>({ data, columns, initialSorting, getRowId, columnVisibility = {} }: SearchableTableOptions<T>) {
  const [search, setSearch] = useState('');
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  // TanStack Table hands back functions React Compiler cannot memoise; the screens do not rely on it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data,
    columns,
    state: { globalFilter: search, sorting },
    onGlobalFilterChange: setSearch,
    onSortingChange: setSorting,
    enableSortingRemoval: false,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    initialState: { pagination: { pageIndex: 0, pageSize: 25 }, columnVisibility },
  });
  return { table, search, setSearch };
}
