import { quote } from '../../../../rates/quote';
import type { RateConfig, RateSet } from '../../../../rates/rate-set';
import { Money } from '../../../../ui/money';
import { wallClockToMs } from '../../../../ui/zoned-time';

const HOUR = 3_600_000;
const pad = (value: number) => String(value).padStart(2, '0');

/** The local date `days` after the calendar day of `dayMs` (a UTC midnight), at `time`, as a datetime-local value. */
function wallClock(dayMs: number, days: number, time: string): string {
  const at = new Date(dayMs + days * 86_400_000);
  return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}T${time}`;
}

/**
 * The common stays the preview compares, in the first whole week from `fromDay` ("2026-12-01"): weekday stays
 * from Monday 09:00, overnight Monday 18:00 → Tuesday 08:00, a weekend Friday 18:00 → Monday 08:00.
 */
export function commonStays(fromDay: string, timeZone: string): { label: string; arrival: number; departure: number }[] {
  const [year, month, day] = fromDay.split('-').map(Number) as [number, number, number];
  const start = Date.UTC(year, month - 1, day);
  // Days to the next Monday (0 when `fromDay` is one): getUTCDay is 0 on Sunday.
  const monday = start + ((8 - new Date(start).getUTCDay()) % 7) * 86_400_000;
  const at = (days: number, time: string) => wallClockToMs(wallClock(monday, days, time), timeZone) ?? Number.NaN;
  const nine = at(0, '09:00');
  return [
    ...[1, 2, 4, 8, 24].map((hours) => ({ label: `${hours} h (Monday from 09:00)`, arrival: nine, departure: nine + hours * HOUR })),
    { label: 'Overnight (Monday 18:00 to Tuesday 08:00)', arrival: at(0, '18:00'), departure: at(1, '08:00') },
    { label: 'Weekend (Friday 18:00 to Monday 08:00)', arrival: at(4, '18:00'), departure: at(7, '08:00') },
  ];
}

function priced(rateSet: RateSet | null, config: RateConfig, arrival: number, departure: number, timeZone: string) {
  if (!rateSet) return '—';
  const result = quote(rateSet, config, arrival, departure, timeZone);
  return result.ok ? <Money cents={result.amountCents} currency={config.currency} /> : result.message;
}

/** What common stays cost under the rates in force and under the edited ones (only once they have no problem). */
export function QuotePreview(props: {
  before: RateSet | null;
  after: RateSet | null;
  config: RateConfig;
  timeZone: string;
  fromDay: string;
}) {
  const { config, timeZone } = props;
  return (
    <div className="table-scroll" role="region" aria-label="Before and after" tabIndex={0}>
      <table className="data-table">
        <caption>What a parker pays, before and after (tax included, the week after the change)</caption>
        <thead>
          <tr>
            <th scope="col">Stay</th>
            <th scope="col">Now</th>
            <th scope="col">After the change</th>
          </tr>
        </thead>
        <tbody>
          {commonStays(props.fromDay, timeZone).map((stay) => (
            <tr key={stay.label}>
              <th scope="row">{stay.label}</th>
              <td>{priced(props.before, config, stay.arrival, stay.departure, timeZone)}</td>
              <td>{props.after ? priced(props.after, config, stay.arrival, stay.departure, timeZone) : 'Fix the problems first'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
