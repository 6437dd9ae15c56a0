import { LogOut, Mail, MonitorSmartphone } from 'lucide-react';
import { Link, NavLink } from 'react-router';
import type { CurrentUser } from '../../../common/auth.ts';
import { navItemsFor } from '../../../common/permissions.ts';
import { ROLE_LABELS } from '../../../common/roles.ts';
import { BrandMark } from '../../components/ui/brand-mark.tsx';
import { cn } from '../../lib/cn.ts';
import { signOut } from '../../lib/navigation.ts';
import { NAV_ICONS } from './nav-icons.ts';

/** SPEC §2: full name, else the e-mail, else 'User'. */
function displayName(user: Pick<CurrentUser, 'firstName' | 'lastName' | 'email'>): string {
  const full = `${user.firstName} ${user.lastName}`.trim();
  return full || user.email.trim() || 'User';
}

function initials(name: string): string {
  const letters = name
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase());
  return letters.join('') || 'U';
}

/** Brand, the role's menu and the user panel; shared by the desktop sidebar and the mobile menu. */
export function SidebarContent({ user }: { user: CurrentUser }) {
  const name = displayName(user);
  return (
    <div className="flex h-full flex-col bg-slate-900 text-slate-200">
      <div className="flex h-16 shrink-0 items-center px-5">
        <BrandMark tone="light" />
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="space-y-1">
          {navItemsFor(user.role).map((item) => {
            const Icon = NAV_ICONS[item.path];
            return (
              <li key={item.path}>
                {/* NavLink sets aria-current="page" on the entry matching the current route. */}
                <NavLink
                  to={item.path}
                  end={item.path === '/'}
                  className={({ isActive }) =>
                    cn(
                      'group flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors',
                      'focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-blue-400',
                      isActive ? 'bg-blue-700 text-white shadow-sm' : 'text-slate-300 hover:bg-slate-800 hover:text-white',
                    )
                  }
                >
                  {Icon ? <Icon aria-hidden="true" className="size-5 shrink-0" /> : null}
                  {item.label}
                </NavLink>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="shrink-0 border-t border-slate-800 p-4">
        <div className="flex items-center gap-3">
          <span aria-hidden="true" className="flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-700 text-sm font-semibold text-white">
            {initials(name)}
          </span>
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-white" data-testid="user-name">
              {name}
            </p>
            <p className="truncate text-xs text-slate-300" data-testid="user-role">
              {ROLE_LABELS[user.role]}
            </p>
          </div>
        </div>
        <NavLink
          to="/sessions"
          className={({ isActive }) =>
            cn(
              'mt-4 flex w-full items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-blue-400',
              isActive ? 'bg-blue-700 text-white' : 'text-slate-200 hover:bg-slate-800 hover:text-white',
            )
          }
        >
          <MonitorSmartphone aria-hidden="true" className="size-4" />
          Your sessions
        </NavLink>
        {/* Each user's own e-mail choices (decision 013) are the switches of Settings › Notifications. */}
        <Link
          to="/settings?tab=notifications"
          className="mt-2 flex w-full items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-slate-200 transition-colors hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-blue-400"
        >
          <Mail aria-hidden="true" className="size-4" />
          Your notifications
        </Link>
        <button
          type="button"
          onClick={signOut}
          className="mt-2 flex w-full items-center justify-center gap-2 rounded-lg border border-slate-700 px-3 py-2 text-sm font-medium text-slate-200 transition-colors hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-blue-400"
        >
          <LogOut aria-hidden="true" className="size-4" />
          Sign Out
        </button>
      </div>
    </div>
  );
}
