import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ChartSpec } from './chart-canvas';

type Drawn = ReturnType<typeof import('./chart-canvas').drawChart>;

/**
 * A chart and the table of its numbers. The figures and the table render first; the chart library is imported
 * afterwards (its own chunk and stylesheet), so it never holds up what the screen says. If it cannot load, the
 * table says everything anyway.
 */
export function DashboardChart({
  title,
  spec,
  table,
  tableNote,
}: {
  title: string;
  spec: ChartSpec;
  /** The chart's numbers as a table, behind a disclosure; or `tableNote` naming the table on screen that has them. */
  table?: ReactNode;
  tableNote?: string;
}) {
  const target = useRef<HTMLDivElement>(null);
  const drawn = useRef<Drawn | null>(null);
  const latest = useRef(spec);
  latest.current = spec;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    import('./chart-canvas')
      .then(({ drawChart }) => {
        if (cancelled || !target.current) return;
        drawn.current = drawChart(target.current, latest.current);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      drawn.current?.dispose();
      drawn.current = null;
    };
  }, []);

  useEffect(() => {
    drawn.current?.update(spec);
  }, [spec]);

  return (
    <figure className="dashboard-chart">
      <figcaption>{title}</figcaption>
      {/* The canvas repeats the table below for sighted users; screen readers read the table. */}
      <div ref={target} className="dashboard-chart-canvas" aria-hidden="true" />
      {failed && <p className="muted">The chart could not be loaded; the table below has the same numbers.</p>}
      {table ? (
        <details className="dashboard-chart-table">
          <summary>Table of this chart</summary>
          {table}
        </details>
      ) : (
        <p className="muted dashboard-chart-note">{tableNote}</p>
      )}
    </figure>
  );
}
