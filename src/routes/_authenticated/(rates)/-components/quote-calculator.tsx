import { TZDate } from '@date-fns/tz';
import { useId, useState } from 'react';
import { quote } from '../../../../rates/quote';
import type { RateConfig, RateSet } from '../../../../rates/rate-set';
import { FormField } from '../../../../ui/form-field';
import { Money } from '../../../../ui/money';
import { wallClockToMs } from '../../../../ui/zoned-time';

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
              Amount: <strong><Money cents={result.amountCents} currency={config.currency} /></strong>{' '}
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
                    <td className="numeric"><Money cents={line.unitCents} currency={config.currency} /></td>
                    <td className="numeric"><Money cents={line.amountCents} currency={config.currency} /></td>
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
