import { useEffect, useMemo, useState } from 'react';
import type { ApiClient } from '../../../../api/client';
import { followRealtime, type StreamStatus } from '../../../../api/realtime-stream';
import type { RealtimeQuery, RealtimeSummary } from '../../../../contract/dashboards';
import { LocationFilter } from '../../../../ui/filter-form';
import { formatCalendarDate, formatCount, formatDateTime } from '../../../../ui/format';
import { Money } from '../../../../ui/money';
import { PlainTable, type PlainColumn } from '../../../../ui/plain-table';
import { ScrollRegion } from '../../../../ui/scroll-region';
import { DashboardChart } from './dashboard-chart';
import { FigureCards, FiguresPending } from './dashboard-parts';
import { averageTicket, occupancy, PAYMENT_METHOD_LABELS } from './dashboard-format';
import { LiveIndicator } from './live-indicator';
import './dashboards.css';

type HourFigures = RealtimeSummary['hours'][number];
type LocationFigures = RealtimeSummary['locations'][number];

const HOUR_COLUMNS: PlainColumn<HourFigures>[] = [
  { header: 'Hour', rowHeader: true, cell: (hour) => `${String(hour.hour).padStart(2, '0')}:00` },
  { header: 'Payments today', numeric: true, cell: (hour) => formatCount(hour.payments) },
  { header: 'Revenue today', numeric: true, cell: (hour) => <Money cents={hour.gross_cents} /> },
  { header: 'Payments last week', numeric: true, cell: (hour) => formatCount(hour.last_week_payments) },
  { header: 'Revenue last week', numeric: true, cell: (hour) => <Money cents={hour.last_week_gross_cents} /> },
];

const LOCATION_COLUMNS: PlainColumn<LocationFigures>[] = [
  { header: 'Location', rowHeader: true, cell: (location) => location.name },
  { header: 'Day', cell: (location) => formatCalendarDate(location.local_day) },
  { header: 'Payments', numeric: true, cell: (location) => formatCount(location.payments) },
  { header: 'Revenue', numeric: true, cell: (location) => <Money cents={location.gross_cents} /> },
  { header: 'Active', numeric: true, cell: (location) => formatCount(location.active_sessions) },
  { header: 'Occupancy', numeric: true, cell: (location) => occupancy(location.active_sessions, location.capacity) },
];

/**
 * `/` for users with the real-time dashboard: today so far at each of their locations, in each location's own day,
 * kept current by the server's stream (no polling). Figures first; the chart follows when its library has loaded.
 */
export function RealtimeDashboard({
  api,
  query,
  initial,
  loadError,
  onQuery,
  onRetry,
}: {
  api: ApiClient;
  query: RealtimeQuery;
  initial: RealtimeSummary | null;
  loadError: string | null;
  onQuery: (query: RealtimeQuery) => void;
  onRetry: () => void;
}) {
  const [live, setLive] = useState<{ summary: RealtimeSummary | null; status: StreamStatus }>({ summary: null, status: 'connecting' });
  const { locationId } = query;
  useEffect(() => {
    setLive({ summary: null, status: 'connecting' });
    return followRealtime(api, locationId ? { locationId } : {}, {
      onSummary: (summary) => setLive((previous) => ({ ...previous, summary })),
      onStatus: (status) => setLive((previous) => ({ ...previous, status })),
    });
  }, [api, locationId]);
  const summary = live.summary ?? initial;

  const totals = useMemo(() => {
    const locations = summary?.locations ?? [];
    const sum = (pick: (location: (typeof locations)[number]) => number) => locations.reduce((total, location) => total + pick(location), 0);
    return {
      payments: sum((location) => location.payments),
      gross: sum((location) => location.gross_cents),
      refunded: sum((location) => location.refunded_cents),
      active: sum((location) => location.active_sessions),
      capacity: sum((location) => location.capacity),
    };
  }, [summary]);

  const chart = useMemo(
    () => ({
      x: Array.from({ length: 24 }, (_, hour) => hour),
      xKind: 'hour' as const,
      series: [
        { label: 'Today', colour: '#1d4ed8', bars: true, values: (summary?.hours ?? []).map((hour) => hour.payments) },
        { label: 'Same day last week', colour: '#b45309', values: (summary?.hours ?? []).map((hour) => hour.last_week_payments) },
      ],
      formatY: (value: number) => formatCount(value),
    }),
    [summary],
  );

  return (
    <section className="section-page dashboard" aria-labelledby="section-title">
      <div className="dashboard-head">
        <h1 id="section-title">Real Time Dashboard</h1>
        <LiveIndicator status={live.status} />
      </div>
      <p className="page-subtitle">Today so far, in each location's own time zone.</p>
      <form className="dashboard-filters" role="search" aria-label="Dashboard filters" onSubmit={(event) => event.preventDefault()}>
        <LocationFilter value={query.locationId} locations={summary?.choices ?? []} onChange={(id) => onQuery(id ? { locationId: String(id) } : {})} />
      </form>
      {!summary ? (
        <FiguresPending what="today's figures" loadError={loadError} onRetry={onRetry} />
      ) : (
        <>
          <FigureCards
            label="Today so far"
            figures={[
              { key: 'revenue', label: 'Revenue', value: <Money cents={totals.gross} /> },
              { key: 'payments', label: 'Payments', value: formatCount(totals.payments) },
              {
                key: 'average',
                label: 'Average ticket',
                value: totals.payments === 0 ? averageTicket(totals.gross, 0) : <Money cents={Math.round(totals.gross / totals.payments)} />,
              },
              { key: 'active', label: 'Active sessions', value: formatCount(totals.active) },
              { key: 'occupancy', label: 'Occupancy', value: occupancy(totals.active, totals.capacity) },
              { key: 'refunded', label: 'Refunded', value: <Money cents={totals.refunded} /> },
            ]}
          />

          <DashboardChart
            title="Payments per hour, today and the same weekday last week (local hours)"
            spec={chart}
            table={
              <ScrollRegion label="Payments per hour">
                <PlainTable columns={HOUR_COLUMNS} rows={summary.hours} rowKey={(hour) => hour.hour} />
              </ScrollRegion>
            }
          />

          <h2>By location</h2>
          <ScrollRegion label="Today by location">
            <PlainTable columns={LOCATION_COLUMNS} rows={summary.locations} rowKey={(location) => location.location_id} testId="realtime-locations" />
          </ScrollRegion>

          <h2>Latest payments</h2>
          {summary.latest.length === 0 ? (
            <p className="muted">No payments yet.</p>
          ) : (
            <ol className="latest-payments" data-testid="latest-payments">
              {summary.latest.map((payment) => (
                <li key={payment.transaction_id} data-transaction-id={payment.transaction_id}>
                  <span className="latest-amount">
                    <Money cents={payment.amount_cents} />
                  </span>
                  <span>{payment.location_name}</span>
                  <span className="muted">
                    {formatDateTime(payment.payment_time, payment.time_zone)} · {PAYMENT_METHOD_LABELS[payment.payment_method]}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
