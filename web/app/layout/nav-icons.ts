import {
  BookOpen,
  CalendarDays,
  CalendarOff,
  Database,
  GraduationCap,
  Layers,
  LayoutDashboard,
  QrCode,
  ScrollText,
  Settings,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { Clock, ShieldAlert } from 'lucide-react';

/** Icons for the sidebar entries, keyed by route (labels and roles come from common/permissions.ts). */
export const NAV_ICONS: Record<string, LucideIcon> = {
  '/': LayoutDashboard,
  '/attendance': QrCode,
  '/users': Users,
  '/students': GraduationCap,
  '/programs': Layers,
  '/courses': BookOpen,
  '/schedules': CalendarDays,
  '/data-management': Database,
  '/audit-logs': ScrollText,
  '/calendar': CalendarOff,
  '/settings': Settings,
  '/hours': Clock,
  '/compliance': ShieldAlert,
};
