import { FileDown, FileSpreadsheet, RefreshCw, Upload } from 'lucide-react';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTabPanel, PageTabs, type PageTab } from '../../components/ui/page-tabs.tsx';
import { useTabParam } from '../../lib/use-tab-param.ts';
import { ExportTab } from './export-tab.tsx';
import { SisTab } from './sis-tab.tsx';
import { TemplatesTab } from './templates-tab.tsx';
import { WizardTab } from './wizard-tab.tsx';

const TABS = [
  { value: 'wizard', label: 'Upload Wizard', icon: Upload },
  { value: 'templates', label: 'CSV Templates', icon: FileSpreadsheet },
  { value: 'export', label: 'Data Export', icon: FileDown },
  { value: 'sync', label: 'SIS Integration', icon: RefreshCw },
] as const satisfies readonly PageTab<string>[];
const PANELS: Record<(typeof TABS)[number]['value'], () => ReactNode> = { wizard: WizardTab, templates: TemplatesTab, export: ExportTab, sync: SisTab };

/** /data-management (SPEC §2): the tab lives in ?tab=wizard|templates|export|sync, default wizard. */
export function DataManagementPage() {
  const [tab, select] = useTabParam(TABS, { alwaysInUrl: true });

  return (
    <>
      <PageHeader
        title="Data Management & SIS Integration"
        subtitle="Import programs, courses, instructors, students and schedules from CSV, and export attendance for your SIS"
      />
      <PageTabs label="Data management sections" tabs={TABS} value={tab} onValueChange={select}>
        {TABS.map(({ value }) => {
          const Panel = PANELS[value];
          return (
            <PageTabPanel key={value} value={value}>
              <Panel />
            </PageTabPanel>
          );
        })}
      </PageTabs>
    </>
  );
}
