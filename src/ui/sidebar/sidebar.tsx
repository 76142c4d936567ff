import { Link, type LinkProps } from '@tanstack/react-router';
import { useId } from 'react';
import { Tooltip, TooltipProvider } from '../tooltip';
import { displayNameFromEmail, initialsFromName } from '../user-identity';
import { SidebarIcon } from './sidebar-icon';
import type { SidebarSection } from './sidebar-icons';

/** One section the sidebar lists: its name, the route it opens, and the section whose icon it shows. */
export interface SidebarEntry {
  label: string;
  to: LinkProps['to'];
  section: SidebarSection;
}

export interface SidebarProps {
  email: string;
  entries: readonly SidebarEntry[];
  open: boolean;
  onToggle: () => void;
  onNavigate: () => void;
  onLogout: () => void;
}

/**
 * The console's sidebar (spec §2): title, who is signed in, the sections this user may open, and Logout. Open it is
 * 260 px wide with labels; collapsed it is a rail of icons whose names show as tooltips.
 */
export function Sidebar({ email, entries, open, onToggle, onNavigate, onLogout }: SidebarProps) {
  const navId = useId();
  const displayName = displayNameFromEmail(email);
  // Only the collapsed rail shows tooltips, so only it is mounted again when Radix Tooltip arrives (../tooltip.tsx).
  const sections = (
    <>
      <nav id={navId} aria-label="Sections">
        <ul className="sidebar-nav">
          {entries.map((entry) => {
            return (
              <li key={entry.to}>
                <Tooltip label={entry.label} enabled={!open}>
                  <Link
                    to={entry.to}
                    className="sidebar-link"
                    activeOptions={{ exact: entry.to === '/' }}
                    activeProps={{ className: 'sidebar-link active', 'aria-current': 'page' }}
                    aria-label={open ? undefined : entry.label}
                    onClick={onNavigate}
                  >
                    <SidebarIcon section={entry.section} />
                    {open && <span>{entry.label}</span>}
                  </Link>
                </Tooltip>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="sidebar-foot">
        <Tooltip label="Logout" enabled={!open}>
          <a
            href="/login"
            className="sidebar-link"
            aria-label={open ? undefined : 'Logout'}
            onClick={(event) => {
              event.preventDefault();
              onLogout();
            }}
          >
            <SidebarIcon control="logout" />
            {open && <span>Logout</span>}
          </a>
        </Tooltip>
      </div>
    </>
  );
  return (
    <aside className={open ? 'sidebar sidebar-open' : 'sidebar sidebar-collapsed'} aria-label="Sidebar">
      <div className="sidebar-head">
        <button
          type="button"
          className="icon-button"
          onClick={onToggle}
          aria-expanded={open}
          aria-controls={navId}
          aria-label={open ? 'Collapse sidebar' : 'Expand sidebar'}
        >
          <SidebarIcon control={open ? 'close' : 'menu'} className="sidebar-toggle-icon" />
        </button>
        {open && <span className="sidebar-title">Lightning Pay Admin</span>}
      </div>
      {open && (
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
      {open ? sections : <TooltipProvider>{sections}</TooltipProvider>}
    </aside>
  );
}
