import { useEffect, useMemo, useState } from 'react';
import type { ApiClient } from '../../../../api/client';
import { followRealtime, type StreamStatus } from '../../../../api/realtime-stream';
import type { RealtimeQuery, RealtimeSummary } from '../../../../contract/dashboards';
import { formatCalendarDate, formatCount, formatDateTime } from '../../../../ui/format';
import { Money } from '../../../../ui/money';
import { ScrollRegion } from '../../../../ui/scroll-region';
import { DashboardChart } from './dashboard-chart';
import { averageTicket, occupancy, PAYMENT_METHOD_LABELS } from './dashboard-format';
import { LiveIndicator } from './live-indicator';
import './dashboards.css';

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
        <label className="form-field">
          <span className="form-label">Location</span>
          <select
            className="select"
            value={query.locationId ?? ''}
            onChange={(event) => onQuery(event.target.value ? { locationId: event.target.value } : {})}
          >
            <option value="">All your locations</option>
            {(summary?.choices ?? []).map((location) => (
              <option key={location.location_id} value={String(location.location_id)}>
                {location.name}
              </option>
            ))}
          </select>
        </label>
      </form>
      {!summary ? (
        loadError ? (
          <div className="load-error" role="alert">
            <p>{loadError}</p>
            <button type="button" className="button" onClick={onRetry}>
              Retry
            </button>
          </div>
        ) : (
          <p className="muted">Loading today's figures…</p>
        )
      ) : (
        <>
          <dl className="dashboard-figures" aria-label="Today so far">
            <div>
              <dt>Revenue</dt>
              <dd data-figure="revenue">
                <Money cents={totals.gross} />
              </dd>
            </div>
            <div>
              <dt>Payments</dt>
              <dd data-figure="payments">{formatCount(totals.payments)}</dd>
            </div>
            <div>
              <dt>Average ticket</dt>
              <dd data-figure="average">{totals.payments === 0 ? averageTicket(totals.gross, 0) : <Money cents={Math.round(totals.gross / totals.payments)} />}</dd>
            </div>
            <div>
              <dt>Active sessions</dt>
              <dd data-figure="active">{formatCount(totals.active)}</dd>
            </div>
            <div>
              <dt>Occupancy</dt>
              <dd data-figure="occupancy">{occupancy(totals.active, totals.capacity)}</dd>
            </div>
            <div>
              <dt>Refunded</dt>
              <dd data-figure="refunded">
                <Money cents={totals.refunded} />
              </dd>
            </div>
          </dl>

          <DashboardChart
            title="Payments per hour, today and the same weekday last week (local hours)"
            spec={chart}
            table={
              <ScrollRegion label="Payments per hour">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">Hour</th>
                      <th scope="col" className="numeric">Payments today</th>
                      <th scope="col" className="numeric">Revenue today</th>
                      <th scope="col" className="numeric">Payments last week</th>
                      <th scope="col" className="numeric">Revenue last week</th>
                    </tr>
                  </thead>
                  <tbody>
                    {summary.hours.map((hour) => (
                      <tr key={hour.hour}>
                        <th scope="row">{`${String(hour.hour).padStart(2, '0')}:00`}</th>
                        <td className="numeric">{formatCount(hour.payments)}</td>
                        <td className="numeric">
                          <Money cents={hour.gross_cents} />
                        </td>
                        <td className="numeric">{formatCount(hour.last_week_payments)}</td>
                        <td className="numeric">
                          <Money cents={hour.last_week_gross_cents} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            }
          />

          <h2>By location</h2>
          <ScrollRegion label="Today by location">
            <table className="data-table" data-testid="realtime-locations">
              <thead>
                <tr>
                  <th scope="col">Location</th>
                  <th scope="col">Day</th>
                  <th scope="col" className="numeric">Payments</th>
                  <th scope="col" className="numeric">Revenue</th>
                  <th scope="col" className="numeric">Active</th>
                  <th scope="col" className="numeric">Occupancy</th>
                </tr>
              </thead>
              <tbody>
                {summary.locations.map((location) => (
                  <tr key={location.location_id}>
                    <th scope="row">{location.name}</th>
                    <td>{formatCalendarDate(location.local_day)}</td>
                    <td className="numeric">{formatCount(location.payments)}</td>
                    <td className="numeric">
                      <Money cents={location.gross_cents} />
                    </td>
                    <td className="numeric">{formatCount(location.active_sessions)}</td>
                    <td className="numeric">{occupancy(location.active_sessions, location.capacity)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
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
