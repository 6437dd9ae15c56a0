import { Bell, ClipboardCheck, Server, ShieldCheck } from 'lucide-react';
import { can } from '../../../common/permissions.ts';
import type { Role } from '../../../common/roles.ts';
import { SETTINGS_EDIT_ACTION, type SettingsGroup } from '../../../common/settings.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Card } from '../../components/ui/card.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTabPanel, PageTabs } from '../../components/ui/page-tabs.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { useTabParam } from '../../lib/use-tab-param.ts';
import { GroupForm, type GroupSpec } from './group-form.tsx';
import { useDeliveryChannels, useNotificationDefaults } from './settings-api.ts';
import { ATTENDANCE, NOTIFICATION_DEFAULTS, NOTIFICATIONS, SECURITY, SYSTEM } from './settings-specs.ts';
import { DeliveryPanel } from './delivery-panel.tsx';
import { MaintenancePanel } from './maintenance-panel.tsx';
import { WeeklyReportPreview } from './weekly-report-preview.tsx';
import { SystemStatusPanel } from './system-status-panel.tsx';
import { useSettings } from '../../lib/shared-queries.ts';

const TABS = [
  { value: 'attendance', label: 'Attendance', icon: ClipboardCheck },
  { value: 'notifications', label: 'Notifications', icon: Bell },
  { value: 'security', label: 'Security', icon: ShieldCheck },
  { value: 'system', label: 'System', icon: Server },
] as const satisfies readonly { value: SettingsGroup; label: string; icon: unknown }[];

const LIMITED_ACCESS: Partial<Record<Role, string>> = {
  it_admin: 'As an IT Administrator you can modify attendance settings. Security and system settings can only be changed by a Super Administrator.',
};

/** SPEC §6: what a role that may not save this tab reads instead of a save button. */
function LimitedAccess({ role }: { role: Role }) {
  return (
    <Alert variant="info" className="mb-6">
      <p className="font-semibold">Limited Access</p>
      <p className="mt-0.5">{LIMITED_ACCESS[role] ?? 'You can view these settings. To change them, contact a Super Administrator or IT Administrator.'}</p>
    </Alert>
  );
}

/**
 * /settings: the four tabs of SPEC §2, loaded from and saved to the server, where they take effect
 * (PRODUCT.md). Each tab saves only its own group, under its own edit right (SPEC §6).
 */
export function SettingsPage() {
  const user = useSignedInUser();
  const settings = useSettings();
  const editsDefaults = can(user.role, 'settings:edit-notification-defaults');
  const defaults = useNotificationDefaults(editsDefaults);
  const [tab, setTab] = useTabParam(TABS);

  const form = (spec: GroupSpec) => {
    const saved = settings.data![spec.group];
    const canEdit = can(user.role, SETTINGS_EDIT_ACTION[spec.group]);
    // Keyed by the saved values: after a save the form starts again from what the server kept.
    return (
      <GroupForm key={JSON.stringify(saved)} spec={spec} saved={saved} canEdit={canEdit} notice={canEdit ? undefined : <LimitedAccess role={user.role} />} />
    );
  };

  return (
    <>
      <PageHeader title="Settings" subtitle="Attendance rules, notifications, security and system options" />
      {!settings.data ? (
        <Card className="flex items-center justify-center gap-2 py-16 text-sm text-slate-600">
          {settings.isError ? (
            <p role="alert" className="text-red-700">
              The settings could not be loaded. Reload the page to try again.
            </p>
          ) : (
            <p role="status" className="inline-flex items-center gap-2">
              <Spinner className="size-5 text-blue-700" /> Loading settings…
            </p>
          )}
        </Card>
      ) : (
        <PageTabs label="Settings groups" tabs={TABS} value={tab} onValueChange={setTab}>
          <PageTabPanel value="attendance" keepMounted>
            {form(ATTENDANCE)}
          </PageTabPanel>
          <PageTabPanel value="notifications" keepMounted>
            <div className="grid gap-6">
              <ChannelsNotice />
              {form(NOTIFICATIONS)}
              {editsDefaults && defaults.data ? (
                <GroupForm key={JSON.stringify(defaults.data)} spec={NOTIFICATION_DEFAULTS} saved={defaults.data} canEdit />
              ) : null}
              {can(user.role, 'reports:preview') ? <WeeklyReportPreview /> : null}
            </div>
          </PageTabPanel>
          <PageTabPanel value="security" keepMounted>
            {form(SECURITY)}
          </PageTabPanel>
          <PageTabPanel value="system" keepMounted>
            {/* minmax(0, 1fr): a long backup path or job error wraps instead of widening the tab past a phone's width. */}
            <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
              {form(SYSTEM)}
              {tab === 'system' ? <SystemStatusPanel canBackUp={can(user.role, 'backups:run')} /> : null}
              {tab === 'system' && can(user.role, 'operations:view') ? <DeliveryPanel canSendTest={can(user.role, 'operations:test-email')} /> : null}
              {tab === 'system' && can(user.role, 'maintenance:manage') ? <MaintenancePanel /> : null}
            </div>
          </PageTabPanel>
        </PageTabs>
      )}
    </>
  );
}

/** Says plainly when a switch cannot act on this server, and why. */
function ChannelsNotice() {
  const channels = useDeliveryChannels();
  if (!channels.data || (channels.data.email && channels.data.sms)) return null;
  return (
    <Alert variant="info">
      {!channels.data.email
        ? 'E-mail is not configured on this server (SMTP_URL is not set): e-mail switches are saved, but nothing is sent until an administrator configures it. '
        : ''}
      {!channels.data.sms ? 'No SMS provider is configured: text messages are not sent.' : ''}
    </Alert>
  );
}
