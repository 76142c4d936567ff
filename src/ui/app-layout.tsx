import { useState, type ReactNode } from 'react';
import { Sidebar, type SidebarEntry } from './sidebar/sidebar';
import { useMediaQuery } from './use-media-query';

/** Spec §2: the sidebar is open by default on windows 1200 px wide or more, collapsed below. */
export const DESKTOP_QUERY = '(min-width: 1200px)';

export interface AppLayoutProps {
  /** The signed-in user's e-mail. */
  email: string;
  /** The sections the user may open, in sidebar order. */
  entries: readonly SidebarEntry[];
  onLogout: () => void;
  /** The current page. */
  children: ReactNode;
}

/** The signed-in frame: the sidebar beside the current page. */
export function AppLayout({ email, entries, onLogout, children }: AppLayoutProps) {
  const desktop = useMediaQuery(DESKTOP_QUERY);
  // null: follow the window width; a click on the toggle pins the user's choice until the width class changes.
  const [choice, setChoice] = useState<{ open: boolean; desktop: boolean } | null>(null);
  const open = choice && choice.desktop === desktop ? choice.open : desktop;
  return (
    <div className={open ? 'app-layout sidebar-is-open' : 'app-layout'}>
      <Sidebar
        email={email}
        entries={entries}
        open={open}
        onToggle={() => setChoice({ open: !open, desktop })}
        onNavigate={() => {
          // On a phone the open sidebar covers the page: close it once a section is chosen.
          if (!desktop) setChoice({ open: false, desktop });
        }}
        onLogout={onLogout}
      />
      {open && !desktop && (
        <div className="sidebar-backdrop" aria-hidden="true" onClick={() => setChoice({ open: false, desktop })} />
      )}
      <main className="app-main" id="main">
        {children}
      </main>
    </div>
  );
}
