import { useId, useState } from 'react';
import { quote, type QuoteLine } from '../../../../rates/quote';
import type { RateConfig, RateSet } from '../../../../rates/rate-set';
import { DateTimeInput } from '../../../../ui/date-time';
import { FormField } from '../../../../ui/form-field';
import { Money } from '../../../../ui/money';
import { PlainTable, type PlainColumn } from '../../../../ui/plain-table';
import { msToWallClock, wallClockToMs } from '../../../../ui/zoned-time';

function lineColumns(currency: string): PlainColumn<QuoteLine>[] {
  return [
    { header: 'Line', rowHeader: true, cell: (line) => line.label },
    { header: 'Quantity', numeric: true, cell: (line) => line.quantity },
    { header: 'Each', numeric: true, cell: (line) => <Money cents={line.unitCents} currency={currency} /> },
    { header: 'Amount', numeric: true, cell: (line) => <Money cents={line.amountCents} currency={currency} /> },
  ];
}

/** "What will a parker pay": arrival and departure on the location's clock → the amount and its lines. */
export function QuoteCalculator(props: { rateSet: RateSet; config: RateConfig; timeZone: string; initialArrival: string }) {
  const { rateSet, config, timeZone } = props;
  const [arrival, setArrival] = useState(props.initialArrival);
  const [departure, setDeparture] = useState(() => {
    const start = wallClockToMs(props.initialArrival, timeZone);
    return start === null ? props.initialArrival : msToWallClock(start + 2 * 3_600_000, timeZone);
  });
  const resultId = useId();
  const arrivalMs = wallClockToMs(arrival, timeZone);
  const departureMs = wallClockToMs(departure, timeZone);
  const result = arrivalMs === null || departureMs === null ? null : quote(rateSet, config, arrivalMs, departureMs, timeZone);
  return (
    <section className="panel" aria-labelledby={`${resultId}-title`}>
      <h2 id={`${resultId}-title`}>What will a parker pay</h2>
      <div className="form-row">
        <FormField label="Arrival" error={arrivalMs === null ? 'Enter the arrival date and time.' : null}>
          {(control) => <DateTimeInput {...control} timeZone={timeZone} value={arrival} onChange={setArrival} />}
        </FormField>
        <FormField label="Departure" error={departureMs === null ? 'Enter the departure date and time.' : null}>
          {(control) => <DateTimeInput {...control} timeZone={timeZone} value={departure} onChange={setDeparture} />}
        </FormField>
      </div>
      <div id={resultId} aria-live="polite">
        {result && !result.ok && <p className="form-error">{result.message}</p>}
        {result?.ok && (
          <>
            <p className="quote-amount">
              Amount: <strong><Money cents={result.amountCents} currency={config.currency} /></strong>{' '}
              <span className="muted">({result.minutes} minutes parked)</span>
            </p>
            <PlainTable
              className="quote-lines"
              caption="How the amount is made up"
              columns={lineColumns(config.currency)}
              rows={result.lines}
              rowKey={(_, index) => index}
            />
          </>
        )}
      </div>
    </section>
  );
}
