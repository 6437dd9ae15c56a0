import { FileDown, FileSpreadsheet, RefreshCw, Upload } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTabPanel, PageTabs, type PageTab } from '../../components/ui/page-tabs.tsx';
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
type TabKey = (typeof TABS)[number]['value'];
const isTab = (v: string | null): v is TabKey => TABS.some((t) => t.value === v);

/** /data-management (SPEC §2): the tab lives in ?tab=wizard|templates|export|sync, default wizard. */
export function DataManagementPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabKey = isTab(requested) ? requested : 'wizard';
  const select = (next: TabKey) =>
    setParams(
      (p) => {
        const q = new URLSearchParams(p);
        q.set('tab', next);
        return q;
      },
      { replace: true },
    );

  return (
    <>
      <PageHeader title="Data Management & SIS Integration" subtitle="Import programs, courses, instructors, students and schedules from CSV, and export attendance for your SIS" />
      <PageTabs label="Data management sections" tabs={TABS} value={tab} onValueChange={select}>
        <PageTabPanel value="wizard">
          <WizardTab />
        </PageTabPanel>
        <PageTabPanel value="templates">
          <TemplatesTab />
        </PageTabPanel>
        <PageTabPanel value="export">
          <ExportTab />
        </PageTabPanel>
        <PageTabPanel value="sync">
          <SisTab />
        </PageTabPanel>
      </PageTabs>
    </>
  );
}
