import type { RateConfig } from '../../../../rates/rate-set';

const DAILY_MAXIMUM_LABELS = { rolling_24h: 'per 24 h from arrival', calendar_day: 'per calendar day' } as const;
const ROUNDING_LABELS = { up: 'every started increment', nearest: 'nearest increment' } as const;

/** A location's rate configuration, read only. */
export function RateConfigDetails({ config, timeZone }: { config: RateConfig; timeZone: string }) {
  return (
    <dl className="details-list">
      <dt>Time zone</dt>
      <dd>{timeZone}</dd>
      <dt>Currency</dt>
      <dd>{config.currency}</dd>
      <dt>Increment</dt>
      <dd>
        {config.incrementMinutes} min, {ROUNDING_LABELS[config.rounding]}
      </dd>
      <dt>Grace period</dt>
      <dd>{config.graceMinutes} min</dd>
      <dt>Tax</dt>
      <dd>{config.taxBasisPoints / 100} %</dd>
      <dt>Daily maximum counted</dt>
      <dd>{DAILY_MAXIMUM_LABELS[config.dailyMaximum]}</dd>
    </dl>
  );
}
