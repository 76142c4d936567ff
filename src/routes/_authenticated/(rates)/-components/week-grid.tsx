import { MINUTES_PER_DAY, WEEKDAY_NAMES, clockTime, type RateSet } from '../../../../rates/rate-set';
import { formatMoney } from '../../../../ui/format';
import { Money } from '../../../../ui/money';
import { PlainTable } from '../../../../ui/plain-table';
import { daysLabel, groupBands } from './rate-draft';

const COLUMN = 100;
const HEIGHT = 480;
const HEADER = 24;

/** A band's price as read on the grid: "$2.00 / 15 min" or "$12.00 flat". */
export function bandPrice(priceCents: number, pricing: 'per_increment' | 'flat', incrementMinutes: number, currency: string) {
  return pricing === 'flat' ? `${formatMoney(priceCents, currency)} flat` : `${formatMoney(priceCents, currency)} / ${incrementMinutes} min`;
}

/**
 * The week as seven columns with each band a block at its hours and its price on it. The drawing is an SVG (sized by
 * attributes: nothing for a strict CSP to refuse); the same bands are listed as a table for screen readers and
 * small screens, the days that share a band on one line ("Monday–Friday 06:00–18:00"), as the editor's rows.
 */
export function WeekGrid({ rateSet, incrementMinutes, currency }: { rateSet: RateSet; incrementMinutes: number; currency: string }) {
  const scale = HEIGHT / MINUTES_PER_DAY;
  const byDay = WEEKDAY_NAMES.map((_, day) =>
    rateSet.bands.filter((band) => band.day === day).sort((a, b) => a.startMinute - b.startMinute),
  );
  return (
    <div className="week-grid">
      <svg viewBox={`0 0 ${COLUMN * 7} ${HEIGHT + HEADER}`} className="week-grid-drawing" aria-hidden="true">
        {WEEKDAY_NAMES.map((name, day) => (
          <g key={name} transform={`translate(${day * COLUMN} 0)`}>
            <text x={COLUMN / 2} y={16} textAnchor="middle" className="week-grid-day">
              {name.slice(0, 3)}
            </text>
            {byDay[day]!.map((band, index) => {
              const y = HEADER + band.startMinute * scale;
              const height = Math.max(1, (band.endMinute - band.startMinute) * scale);
              return (
                // Bands being edited may overlap or repeat: their place in the day is their key.
                <g key={index}>
                  <rect x={2} y={y} width={COLUMN - 4} height={height} rx={3} className={band.pricing === 'flat' ? 'week-grid-band flat' : 'week-grid-band'} />
                  {height >= 26 && (
                    <text x={COLUMN / 2} y={y + height / 2 + 4} textAnchor="middle" className="week-grid-price">
                      {formatMoney(band.priceCents, currency)}
                    </text>
                  )}
                </g>
              );
            })}
          </g>
        ))}
      </svg>
      <PlainTable
        className="week-grid-table"
        caption="Bands by day"
        columns={[
          { header: 'Days', rowHeader: true, cell: ({ days }) => daysLabel(days, WEEKDAY_NAMES) },
          { header: 'From', cell: ({ band }) => clockTime(band.startMinute) },
          { header: 'To', cell: ({ band }) => clockTime(band.endMinute) },
          {
            header: 'Price',
            cell: ({ band }) => (
              <>
                <Money cents={band.priceCents} currency={currency} />
                {band.pricing === 'flat' ? ' flat' : ` / ${incrementMinutes} min`}
              </>
            ),
          },
        ]}
        rows={groupBands(rateSet.bands)}
        rowKey={(_, index) => index}
      />
    </div>
  );
}
