import { Link, type LinkProps } from '@tanstack/react-router';

/** One screen of a section, as its tab names it. */
export interface SectionTab {
  label: string;
  to: LinkProps['to'];
}

/**
 * The screens of one section, linked to each other under the page title (the refund portal's tickets and transaction
 * search; the rates screens). Links, not an ARIA tab list: each screen has its own address, so a tab is a page to
 * open, named as the current one with `aria-current`.
 */
export function SectionTabs({ label, tabs }: { label: string; tabs: readonly SectionTab[] }) {
  return (
    <nav className="section-tabs" aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <Link
              to={tab.to}
              className="section-tab"
              activeOptions={{ exact: true, includeSearch: false }}
              activeProps={{ className: 'active' }}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
