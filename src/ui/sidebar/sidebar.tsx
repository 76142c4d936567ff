import { Link, useRouterState, type LinkProps } from '@tanstack/react-router';
import { useId } from 'react';
import { Tooltip, TooltipProvider } from '../tooltip';
import { displayNameFromEmail, initialsFromName } from '../user-identity';
import { SidebarIcon } from './sidebar-icon';
import type { SidebarSection } from './sidebar-icons';

/** One section the sidebar lists: its name, the route it opens, and the section whose icon it shows. */
export interface SidebarEntry {
  label: string;
  to: LinkProps['to'] & string;
  section: SidebarSection;
  /** Other addresses of the section's screens, where the entry shows as the current one. */
  activeUnder?: readonly string[];
}

/**
 * `docked`: beside the page (1200 px and wider), open or collapsed to a rail of icons at the user's choice. `drawer`:
 * over the page on a narrower window, shown only while open.
 */
export type SidebarVariant = 'docked' | 'drawer';

export interface SidebarProps {
  id?: string;
  variant: SidebarVariant;
  email: string;
  entries: readonly SidebarEntry[];
  /** Docked only: open with labels, or the rail. A drawer is open while it is shown. */
  open: boolean;
  onToggle: () => void;
  onNavigate: () => void;
  onLogout: () => void;
}

/** Whether `pathname` is one of the entry's screens: its own address or one under it, or one of `activeUnder`. */
export function isCurrentEntry(entry: SidebarEntry, pathname: string): boolean {
  if (entry.to === '/') return pathname === '/';
  return [entry.to, ...(entry.activeUnder ?? [])].some((path) => pathname === path || pathname.startsWith(`${path}/`));
}

/**
 * The console's sidebar (spec §2): title, who is signed in, the sections this user may open, and Logout. Open it is
 * 260 px wide with labels; the docked one collapsed is a rail of icons whose names show as tooltips.
 */
export function Sidebar({ id, variant, email, entries, open, onToggle, onNavigate, onLogout }: SidebarProps) {
  const navId = useId();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const labelled = variant === 'drawer' || open;
  const displayName = displayNameFromEmail(email);
  // Only the collapsed rail shows tooltips, so only it is mounted again when Radix Tooltip arrives (../tooltip.tsx).
  const sections = (
    <>
      <nav id={navId} aria-label="Sections">
        <ul className="sidebar-nav">
          {entries.map((entry) => {
            const current = isCurrentEntry(entry, pathname);
            return (
              <li key={entry.to}>
                <Tooltip label={entry.label} enabled={!labelled}>
                  <Link
                    to={entry.to}
                    className={current ? 'sidebar-link active' : 'sidebar-link'}
                    activeOptions={{ exact: entry.to === '/' }}
                    activeProps={{}}
                    aria-current={current ? 'page' : undefined}
                    aria-label={labelled ? undefined : entry.label}
                    onClick={onNavigate}
                  >
                    <SidebarIcon section={entry.section} />
                    {labelled && <span>{entry.label}</span>}
                  </Link>
                </Tooltip>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="sidebar-foot">
        <Tooltip label="Logout" enabled={!labelled}>
          <a
            href="/login"
            className="sidebar-link"
            aria-label={labelled ? undefined : 'Logout'}
            onClick={(event) => {
              event.preventDefault();
              onLogout();
            }}
          >
            <SidebarIcon control="logout" />
            {labelled && <span>Logout</span>}
          </a>
        </Tooltip>
      </div>
    </>
  );
  const className = variant === 'drawer' ? 'sidebar sidebar-open sidebar-drawer' : open ? 'sidebar sidebar-open' : 'sidebar sidebar-collapsed';
  return (
    <aside id={id} className={className} aria-label="Sidebar">
      <div className="sidebar-head">
        <button
          type="button"
          className="icon-button"
          onClick={onToggle}
          aria-expanded={labelled}
          aria-controls={navId}
          aria-label={variant === 'drawer' ? 'Close sidebar' : open ? 'Collapse sidebar' : 'Expand sidebar'}
          // A drawer opens from the top bar's button: the focus follows into it.
          autoFocus={variant === 'drawer'}
        >
          <SidebarIcon control={labelled ? 'close' : 'menu'} className="sidebar-toggle-icon" />
        </button>
        {labelled && <span className="sidebar-title">Lightning Pay Admin</span>}
      </div>
      {labelled && (
        <div className="sidebar-user">
          <span className="avatar" aria-hidden="true">
            {initialsFromName(displayName)}
          </span>
          <span className="sidebar-user-text">
            <span className="sidebar-user-name">{displayName}</span>
            <span className="sidebar-user-email">{email}</span>
          </span>
        </div>
      )}
      {labelled ? sections : <TooltipProvider>{sections}</TooltipProvider>}
    </aside>
  );
}
