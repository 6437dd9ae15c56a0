import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { Program } from '../../../common/programs.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { RecomputingHoursNotice } from '../../components/recomputing-hours-notice.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { TablePagination } from '../../components/ui/table-pagination.tsx';
import { Toolbar } from '../../components/ui/toolbar.tsx';
import { useSearchableTable } from '../../components/ui/use-searchable-table.ts';
import { usePrograms } from '../../lib/shared-queries.ts';
import { programColumns } from './program-columns.tsx';
import { ProgramFormDialog } from './program-form-dialog.tsx';
import { ProgramPolicyDialog } from './program-policy-dialog.tsx';
import { TimeClockDialog } from './time-clock-dialog.tsx';

/** /programs: the school's programs, add/edit, each program's clock-hour policy (decision 014) and time-clock rules (decision 050). */
export function ProgramsPage() {
  const programs = usePrograms();
  const [editing, setEditing] = useState<Program | 'new' | null>(null);
  const [policyOf, setPolicyOf] = useState<Program | null>(null);
  const [timeClockOf, setTimeClockOf] = useState<Program | null>(null);
  const data = useMemo(() => programs.data ?? [], [programs.data]);
  const columns = useMemo(() => programColumns({ onEdit: setEditing, onPolicy: setPolicyOf, onTimeClock: setTimeClockOf }), []);
  const { table, search, setSearch } = useSearchableTable({
    data,
    columns,
    initialSorting: [{ id: 'programName', desc: false }],
    getRowId: (p) => String(p.id),
    columnVisibility: { sisProgramId: false },
  });

  return (
    <>
      <PageHeader
        title="Programs"
        subtitle="Programs, credentials, clock-hour policies and time-clock rules"
        actions={
          <Button onClick={() => setEditing('new')} icon={Plus}>
            Add Program
          </Button>
        }
      />
      <RecomputingHoursNotice className="mb-6" />
      {programs.isError ? <Alert className="mb-6">The program list could not be loaded. Reload the page to try again.</Alert> : null}
      <Card className="overflow-hidden">
        <Toolbar>
          <SearchInput
            label="Search programs"
            placeholder="Search by name, code, credential or SIS ID"
            value={search}
            onChange={setSearch}
            className="sm:max-w-md sm:flex-1"
          />
        </Toolbar>
        <DataTable
          cardsOnPhone
          table={table}
          caption="Programs"
          isLoading={programs.isLoading}
          empty={search ? 'No programs match your search.' : 'No programs yet. Add one to get started.'}
        />
        <TablePagination table={table} noun="programs" />
      </Card>
      <ProgramFormDialog target={editing} onClose={() => setEditing(null)} />
      <ProgramPolicyDialog program={policyOf} onClose={() => setPolicyOf(null)} />
      <TimeClockDialog program={timeClockOf} onClose={() => setTimeClockOf(null)} />
    </>
  );
}
