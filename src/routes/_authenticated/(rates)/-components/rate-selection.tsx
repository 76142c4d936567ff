import { TZDate } from '@date-fns/tz';
import { useId } from 'react';
import type { RateLocation } from '../../../../contract/rates';
import { formatDateTime, formatMoney } from '../../../../ui/format';
import { QuoteCalculator } from './quote-calculator';
import { RateConfigDetails } from './rate-config-details';
import { RateLocationChoice, type RateLocationRef } from './rate-location-choice';
import { WeekGrid } from './week-grid';
import { SectionTabs } from '../../../../ui/section-tabs';
import { RATES_TABS } from '../../../-shared/section-tabs';


/** The next full hour on the location's clock, as a datetime-local value: where the calculator starts. */
function nextHour(timeZone: string, now: number): string {
  const at = new TZDate(now + 3_600_000, timeZone);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:00`;
}

/**
 * /rate-selection: one of the user's locations, its rate set in force as a week grid, its configuration, the next
 * scheduled change, and the calculator. Choosing a location changes the URL (`?locationId=`).
 */
export function RateSelection(props: {
  locations: RateLocationRef[];
  rates: RateLocation | null;
  onLocation: (locationId: number) => void;
  now: number;
}) {
  const { locations, rates } = props;
  const titleId = useId();
  if (locations.length === 0) {
    return (
      <section className="section-page" aria-labelledby={titleId}>
        <h1 id={titleId}>Configure Rates</h1>
        <SectionTabs {...RATES_TABS} />
        <p>None of your locations has rates you may see.</p>
      </section>
    );
  }
  const config = rates?.config;
  return (
    <section className="section-page" aria-labelledby={titleId}>
      <h1 id={titleId}>Configure Rates</h1>
      <SectionTabs {...RATES_TABS} />
      <RateLocationChoice locations={locations} value={rates?.location_id} onLocation={props.onLocation} />
      {rates && config && (
        <>
          <section className="panel" aria-label="Configuration">
            <h2>Configuration</h2>
            <RateConfigDetails config={config} timeZone={rates.time_zone} />
          </section>
          <section className="panel" aria-label="Rates in force">
            <h2>Rates in force</h2>
            {rates.current ? (
              <>
                <p>
                  Since {formatDateTime(rates.current.effective_at, rates.time_zone)}: {rates.current.reason}.{' '}
                  {rates.current.rate_set.dailyMaxCents !== null && (
                    <>Daily maximum {formatMoney(rates.current.rate_set.dailyMaxCents, config.currency)}. </>
                  )}
                  {rates.current.rate_set.maxStayMinutes !== null && <>Longest stay {Math.round(rates.current.rate_set.maxStayMinutes / 60)} h.</>}
                </p>
                <WeekGrid rateSet={rates.current.rate_set} incrementMinutes={config.incrementMinutes} currency={config.currency} />
                {rates.current.rate_set.events.length > 0 && (
                  <ul aria-label="Events">
                    {rates.current.rate_set.events.map((event) => (
                      <li key={`${event.start}-${event.name}`}>
                        {event.name}: {event.start.replace('T', ' ')} to {event.end.replace('T', ' ')},{' '}
                        {formatMoney(event.priceCents, config.currency)} {event.pricing === 'flat' ? 'flat' : `per ${config.incrementMinutes} min`}
                      </li>
                    ))}
                  </ul>
                )}
              </>
            ) : (
              <p>No rates are in force at this location yet.</p>
            )}
            <p>
              {rates.next
                ? `Next change: ${formatDateTime(rates.next.effective_at, rates.time_zone)} — ${rates.next.reason}.`
                : 'No change is scheduled.'}
            </p>
          </section>
          {rates.current && (
            <QuoteCalculator
              key={rates.current.rate_set_id}
              rateSet={rates.current.rate_set}
              config={config}
              timeZone={rates.time_zone}
              initialArrival={nextHour(rates.time_zone, props.now)}
            />
          )}
        </>
      )}
    </section>
  );
}
