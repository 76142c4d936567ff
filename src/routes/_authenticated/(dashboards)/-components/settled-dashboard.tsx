import { useId, useMemo, useState, type FormEvent } from 'react';
import { SETTLED_RANGES, type SettledRange, type SettledSearch } from '../../../../contract/dashboard-queries';
import type { SettledDashboard as SettledData, SettledFigures } from '../../../../contract/dashboards';
import { settledRangeProblem } from '../../../../contract/settled-ranges';
import { isCalendarDate } from '../../../../contract/transactions';
import { CsvExportButton } from '../../../../ui/csv-export-button';
import { LocationFilter } from '../../../../ui/filter-form';
import { formatCalendarDate, formatCount, formatMoney } from '../../../../ui/format';
import { Money } from '../../../../ui/money';
import { PlainTable, type PlainColumn } from '../../../../ui/plain-table';
import { ScrollRegion } from '../../../../ui/scroll-region';
import { DashboardChart } from './dashboard-chart';
import { FigureCards, FiguresPending } from './dashboard-parts';
import { RANGE_LABELS, rangeInWords } from './settled-range';
import './dashboards.css';

const MEASURES = [
  ['payments', 'Payments'],
  ['gross_cents', 'Gross'],
  ['fee_cents', 'Fees'],
  ['refunded_cents', 'Refunds'],
  ['net_cents', 'Net'],
] as const;

function measureValue(figures: SettledFigures, key: (typeof MEASURES)[number][0]) {
  return key === 'payments' ? formatCount(figures[key]) : <Money cents={figures[key]} />;
}

/** A row of a settled table: what it is settled by (a day, a location, the total) and its figures. */
interface SettledRow {
  key: string | number;
  name: string;
  figures: SettledFigures;
  attributes?: Record<string, string>;
}

/** The settled figures by one thing (day or location): that thing named in each row, then every measure. */
function SettledTable({ labelledBy, by, rows, total, testId }: { labelledBy: string; by: string; rows: SettledRow[]; total?: SettledFigures; testId: string }) {
  const columns: PlainColumn<SettledRow>[] = [
    { header: by, rowHeader: true, cell: (row) => row.name },
    ...MEASURES.map(([key, label]) => ({ header: label, numeric: true, cell: (row: SettledRow) => measureValue(row.figures, key) })),
  ];
  return (
    <ScrollRegion labelledBy={labelledBy}>
      <PlainTable
        columns={columns}
        rows={rows}
        rowKey={(row) => row.key}
        rowAttributes={(row) => row.attributes ?? {}}
        footRow={total && { key: 'total', name: 'Total', figures: total }}
        testId={testId}
      />
    </ScrollRegion>
  );
}

/**
 * `/settled-dashboard`: money the processor has paid out, by settlement day (each location's calendar day) and by
 * location, over a range kept in the URL. Every figure comes from the server's integer cents; the totals row is the
 * server's too.
 */
export function SettledDashboard({
  search,
  data,
  loadError,
  busy,
  onSearch,
  onRetry,
  onExport,
}: {
  search: SettledSearch;
  data: SettledData | null;
  loadError: string | null;
  busy: boolean;
  onSearch: (search: SettledSearch) => void;
  onRetry: () => void;
  onExport: (onProgress: (receivedBytes: number) => void) => Promise<void>;
}) {
  const range = search.range ?? 'last7';
  const [custom, setCustom] = useState({ from: search.from ?? data?.from ?? '', to: search.to ?? data?.to ?? '' });
  const [customError, setCustomError] = useState<string | null>(null);
  const customErrorId = useId();

  const chooseRange = (next: SettledRange) => {
    if (next !== 'custom') {
      onSearch({ ...(next === 'last7' ? {} : { range: next }), locationId: search.locationId });
      return;
    }
    setCustom({ from: data?.from ?? '', to: data?.to ?? '' });
    if (data) onSearch({ range: 'custom', from: data.from, to: data.to, locationId: search.locationId });
  };
  const applyCustom = (event: FormEvent) => {
    event.preventDefault();
    if (!isCalendarDate(custom.from) || !isCalendarDate(custom.to)) return setCustomError('Enter both dates.');
    // The server's own rule (a year at most), said here before anything is sent.
    const problem = settledRangeProblem(custom.from, custom.to);
    if (problem) return setCustomError(problem);
    setCustomError(null);
    onSearch({ range: 'custom', from: custom.from, to: custom.to, locationId: search.locationId });
  };

  const chart = useMemo(
    () => ({
      x: (data?.days ?? []).map((day) => Date.parse(`${day.day}T00:00:00Z`) / 1000),
      xKind: 'day' as const,
      // Stacked by measure: net, then fees on it, then refunds on top, which reaches the gross. Bars drawn later
      // are shorter and cover the earlier ones from zero up.
      series: [
        { label: 'Refunds', colour: '#f59e0b', bars: true, values: (data?.days ?? []).map((day) => day.net_cents + day.fee_cents + day.refunded_cents) },
        { label: 'Fees', colour: '#94a3b8', bars: true, values: (data?.days ?? []).map((day) => day.net_cents + day.fee_cents) },
        { label: 'Net', colour: '#1d4ed8', bars: true, values: (data?.days ?? []).map((day) => day.net_cents) },
      ],
      formatY: (cents: number) => formatMoney(Math.round(cents)).replace(/\.\d\d$/, ''),
    }),
    [data],
  );

  return (
    <section className="section-page dashboard" aria-labelledby="section-title">
      <h1 id="section-title">Settled Dashboard</h1>
      <p className="page-subtitle">Money settled by the processor, by settlement day (each location's own calendar day).</p>
      <form className="dashboard-filters" role="search" aria-label="Settled range and location" onSubmit={applyCustom}>
        <label className="form-field">
          <span className="form-label">Range</span>
          <select className="select" value={range} onChange={(event) => chooseRange(event.target.value as SettledRange)}>
            {SETTLED_RANGES.map((name) => (
              <option key={name} value={name}>
                {RANGE_LABELS[name]}
              </option>
            ))}
          </select>
        </label>
        {range === 'custom' && (
          <>
            {(['from', 'to'] as const).map((end) => (
              <label key={end} className="form-field">
                <span className="form-label">{end === 'from' ? 'From' : 'To'}</span>
                <input
                  className="input"
                  type="date"
                  value={custom[end]}
                  aria-invalid={customError ? true : undefined}
                  aria-describedby={customError ? customErrorId : undefined}
                  onChange={(event) => setCustom({ ...custom, [end]: event.target.value })}
                />
              </label>
            ))}
            <button type="submit" className="button">
              Apply
            </button>
          </>
        )}
        <LocationFilter value={search.locationId} locations={data?.choices ?? []} onChange={(id) => onSearch({ ...search, locationId: id === undefined ? undefined : String(id) })} />
        {customError && (
          <p className="field-error" role="alert" id={customErrorId}>
            {customError}
          </p>
        )}
        {data && (
          <p className="dashboard-range-days" data-testid="settled-range-days" aria-live="polite">
            <strong>{rangeInWords(data.from, data.to)}</strong>
            <span className="muted"> · ranges end with the last full day at the locations (their own time zones)</span>
          </p>
        )}
      </form>

      {!data ? (
        <FiguresPending what="settled figures" loadError={loadError} onRetry={onRetry} />
      ) : (
        <div aria-busy={busy}>
          <FigureCards label="Totals of the range" figures={MEASURES.map(([key, label]) => ({ key, label, value: measureValue(data.totals, key) }))} />
          <DashboardChart title="Settled per day: net, fees and refunds (together the gross)" spec={chart} tableNote="The table “Settled by day” below has these numbers." />
          <div className="list-toolbar">
            <CsvExportButton label="Export CSV" onExport={onExport} />
          </div>
          <h2 id="settled-by-day">Settled by day</h2>
          <SettledTable
            labelledBy="settled-by-day"
            by="Day"
            rows={data.days.map((day) => ({ key: day.day, name: formatCalendarDate(day.day), figures: day, attributes: { 'data-day': day.day } }))}
            total={data.totals}
            testId="settled-days"
          />
          <h2 id="settled-by-location">Settled by location</h2>
          {data.locations.length === 0 ? (
            <p className="muted">Nothing settled in this range.</p>
          ) : (
            <SettledTable
              labelledBy="settled-by-location"
              by="Location"
              rows={data.locations.map((location) => ({ key: location.location_id, name: location.name, figures: location }))}
              testId="settled-locations"
            />
          )}
        </div>
      )}
    </section>
  );
}
