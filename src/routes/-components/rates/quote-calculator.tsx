import { TZDate } from '@date-fns/tz';
import { useId, useState } from 'react';
import { quote } from '../../../rates/quote';
import type { RateConfig, RateSet } from '../../../rates/rate-set';
import { FormField } from '../../../ui/form-field';
import { formatMoney } from '../../../ui/format';

/** "2026-03-02T09:30" on the location's wall clock → epoch ms (@date-fns/tz: right across DST). */
export function wallClockToMs(value: string, timeZone: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  const at = new TZDate(year, month - 1, day, hour, minute, timeZone);
  return Number.isNaN(at.getTime()) ? null : at.getTime();
}

/** "What will a parker pay": arrival and departure on the location's clock → the amount and its lines. */
export function QuoteCalculator(props: { rateSet: RateSet; config: RateConfig; timeZone: string; initialArrival: string }) {
  const { rateSet, config, timeZone } = props;
  const [arrival, setArrival] = useState(props.initialArrival);
  const [departure, setDeparture] = useState(() => {
    const start = wallClockToMs(props.initialArrival, timeZone);
    if (start === null) return props.initialArrival;
    const later = new TZDate(start + 2 * 3_600_000, timeZone);
    const pad = (value: number) => String(value).padStart(2, '0');
    return `${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}T${pad(later.getHours())}:${pad(later.getMinutes())}`;
  });
  const resultId = useId();
  const arrivalMs = wallClockToMs(arrival, timeZone);
  const departureMs = wallClockToMs(departure, timeZone);
  const result = arrivalMs === null || departureMs === null ? null : quote(rateSet, config, arrivalMs, departureMs, timeZone);
  return (
    <section className="panel" aria-labelledby={`${resultId}-title`}>
      <h2 id={`${resultId}-title`}>What will a parker pay</h2>
      <div className="form-row">
        <FormField label={`Arrival (${timeZone})`} error={arrivalMs === null ? 'Enter the arrival date and time.' : null}>
          {(control) => <input {...control} className="input" type="datetime-local" value={arrival} onChange={(event) => setArrival(event.target.value)} />}
        </FormField>
        <FormField label={`Departure (${timeZone})`} error={departureMs === null ? 'Enter the departure date and time.' : null}>
          {(control) => <input {...control} className="input" type="datetime-local" value={departure} onChange={(event) => setDeparture(event.target.value)} />}
        </FormField>
      </div>
      <div id={resultId} aria-live="polite">
        {result && !result.ok && <p className="form-error">{result.message}</p>}
        {result?.ok && (
          <>
            <p className="quote-amount">
              Amount: <strong>{formatMoney(result.amountCents, config.currency)}</strong>{' '}
              <span className="muted">({result.minutes} minutes parked)</span>
            </p>
            <table className="quote-lines">
              <caption>How the amount is made up</caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col" className="numeric">Quantity</th>
                  <th scope="col" className="numeric">Each</th>
                  <th scope="col" className="numeric">Amount</th>
                </tr>
              </thead>
              <tbody>
                {result.lines.map((line, index) => (
                  <tr key={index}>
                    <th scope="row">{line.label}</th>
                    <td className="numeric">{line.quantity}</td>
                    <td className="numeric">{formatMoney(line.unitCents, config.currency)}</td>
                    <td className="numeric">{formatMoney(line.amountCents, config.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </div>
    </section>
  );
}
