import type { ReactNode } from 'react';
import { HistoryPanel, type HistoryPanelProps } from './history-panel';
import { SectionPage } from './section-page';

/** One term of a record's details and its value (text, money, a link). */
export type DetailRow = readonly [term: string, value: ReactNode];

/** A record's fields read only, as terms and values in columns that fit the page's width. */
export function DetailsList({ rows }: { rows: readonly DetailRow[] }) {
  return (
    <dl className="details-list">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A record's page (docs/sections.md "Detail pages"): the title, a line under it (where the record stands, the way
 * back), the record itself (its form or details, and its actions), and its History beside it on a wide screen and
 * below it on a narrow one.
 */
export function RecordPage({
  title,
  lead,
  history,
  children,
}: {
  title: string;
  lead?: ReactNode;
  /** The History panel's props: entries, the record's clock, the section's field labels and types. */
  history: HistoryPanelProps;
  children: ReactNode;
}) {
  return (
    <SectionPage title={title}>
      {lead}
      <div className="record-layout">
        <div className="record-main">{children}</div>
        <HistoryPanel {...history} />
      </div>
    </SectionPage>
  );
}

