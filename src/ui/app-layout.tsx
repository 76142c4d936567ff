import { useEffect, useId, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { Sidebar, type SidebarEntry } from './sidebar/sidebar';
import { SidebarIcon } from './sidebar/sidebar-icon';
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

/** Moves the focus to the page itself (not the hash: a new URL would make the router load the page again). */
function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

/**
 * The signed-in frame. From 1200 px the sidebar sits beside the page, open by default, collapsible to a rail of
 * icons. Narrower, the page has the whole width: a top bar's menu button opens the sidebar as a drawer over it, and
 * choosing a section, Escape or a tap beside it closes it ("collapsed below", spec §2). A skip link comes first, so
 * the first Tab offers the page, not the sidebar.
 */
export function AppLayout({ email, entries, onLogout, children }: AppLayoutProps) {
  const desktop = useMediaQuery(DESKTOP_QUERY);
  // null: follow the window width; a click on the toggle pins the user's choice until the width class changes.
  const [choice, setChoice] = useState<{ open: boolean; desktop: boolean } | null>(null);
  const open = choice && choice.desktop === desktop ? choice.open : desktop;
  const drawerOpen = open && !desktop;
  const sidebarId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);

  /** Closes the drawer; `refocus` returns the focus to the menu button (Escape, the close button, the backdrop). */
  function closeDrawer(refocus: boolean) {
    setChoice({ open: false, desktop });
    if (refocus) requestAnimationFrame(() => menuButton.current?.focus());
  }

  useEffect(() => {
    if (!drawerOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        setChoice({ open: false, desktop: false });
        requestAnimationFrame(() => menuButton.current?.focus());
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [drawerOpen]);

  return (
    <div className={desktop ? 'app-layout' : 'app-layout app-layout-narrow'}>
      <a className="skip-link" href="#main" onClick={skipToMain}>
        Skip to content
      </a>
      {!desktop && (
        <header className="app-topbar">
          <button
            ref={menuButton}
            type="button"
            className="icon-button"
            onClick={() => setChoice({ open: true, desktop })}
            aria-expanded={drawerOpen}
            aria-controls={drawerOpen ? sidebarId : undefined}
            aria-label="Open sidebar"
          >
            <SidebarIcon control="menu" className="sidebar-toggle-icon" />
          </button>
          <span className="app-topbar-title">Lightning Pay Admin</span>
        </header>
      )}
      {(desktop || drawerOpen) && (
        <Sidebar
          id={sidebarId}
          variant={desktop ? 'docked' : 'drawer'}
          email={email}
          entries={entries}
          open={open}
          onToggle={() => (desktop ? setChoice({ open: !open, desktop }) : closeDrawer(true))}
          // The drawer covers the page: it closes once a section is chosen.
          onNavigate={() => drawerOpen && closeDrawer(false)}
          onLogout={() => {
            // Logout may ask first (offline): the page, not the drawer, is what stays if the user does not go.
            if (drawerOpen) closeDrawer(false);
            onLogout();
          }}
        />
      )}
      {drawerOpen && <div className="sidebar-backdrop" aria-hidden="true" onClick={() => closeDrawer(true)} />}
      <main className="app-main" id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
