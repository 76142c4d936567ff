import { dollarsToCents } from '../../../../contract/money-text';
import type { Pricing } from '../../../../rates/rate-set';
import { WEEKDAY_NAMES } from '../../../../rates/rate-set';
import { MoneyInput } from '../../../../ui/money-input';
import { SHORT_DAY_NAMES, daysLabel, newRowKey, rowFieldProblems, type BandRow } from './rate-draft';
import { bandPrice } from './week-grid';

interface BandRowsProps {
  rows: BandRow[];
  /** Sentences about each row (gaps, overlaps, the server's refusals), by row key. */
  rowProblems: ReadonlyMap<number, readonly string[]>;
  incrementMinutes: number;
  currency: string;
  onChange: (rows: BandRow[]) => void;
}

/**
 * The bands as rows, one band across the days it applies to: day toggles, start, end, price and how it is charged.
 * Each row is a small card that wraps its fields (a phone shows them stacked, never cut). A field that cannot be
 * read says so under it as it is typed; the week's gaps and overlaps are said under the rows they concern.
 */
export function BandRows({ rows, rowProblems, incrementMinutes, currency, onChange }: BandRowsProps) {
  const update = (key: number, change: Partial<BandRow>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const addAfter = (index: number) => {
    const before = rows[index];
    const row: BandRow = before
      ? { key: newRowKey(), days: before.days, start: before.end, end: '24:00', pricing: before.pricing, price: before.price }
      : { key: newRowKey(), days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00', pricing: 'per_increment', price: '0.00' };
    onChange([...rows.slice(0, index + 1), row, ...rows.slice(index + 1)]);
  };
  return (
    <div className="band-rows">
      <p className="form-hint">Times are on the location’s clock; the end is not included, and 24:00 is midnight at the end of the day.</p>
      {rows.map((row, index) => (
        <BandRowCard
          key={row.key}
          row={row}
          number={index + 1}
          problems={rowProblems.get(row.key) ?? []}
          incrementMinutes={incrementMinutes}
          currency={currency}
          onUpdate={(change) => update(row.key, change)}
          onAddAfter={() => addAfter(index)}
          onRemove={() => onChange(rows.filter((other) => other.key !== row.key))}
        />
      ))}
      <button type="button" className="button" onClick={() => addAfter(rows.length - 1)}>
        Add a band
      </button>
    </div>
  );
}

/** "Mon–Fri 06:00–18:00 $2.00 / 15 min": the row as read, from what is typed. */
function rowSummary(row: BandRow, incrementMinutes: number, currency: string): string {
  const cents = dollarsToCents(row.price);
  const price = cents === null ? row.price : bandPrice(cents, row.pricing, incrementMinutes, currency);
  return `${row.days.length === 0 ? 'No days' : daysLabel(row.days)} ${row.start}–${row.end} ${price}`;
}

function BandRowCard(props: {
  row: BandRow;
  number: number;
  problems: readonly string[];
  incrementMinutes: number;
  currency: string;
  onUpdate: (change: Partial<BandRow>) => void;
  onAddAfter: () => void;
  onRemove: () => void;
}) {
  const { row, number, problems, onUpdate } = props;
  const name = `Band ${number}`;
  const id = `band-${row.key}`;
  const fields = rowFieldProblems(row);
  const problemsId = `${id}-problems`;
  // The controls of a row with a gap or an overlap point at the sentences that say which.
  const control = (field: keyof typeof fields) => {
    const describedBy = [fields[field] ? `${id}-${field}-error` : null, problems.length > 0 && field !== 'price' ? problemsId : null].filter(Boolean).join(' ');
    return {
      id: `${id}-${field}`,
      ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      ...(fields[field] || (problems.length > 0 && field !== 'price') ? { 'aria-invalid': true as const } : {}),
    };
  };
  const fieldError = (field: keyof typeof fields) =>
    fields[field] && (
      <p id={`${id}-${field}-error`} className="field-error">
        {fields[field]}
      </p>
    );
  const label = (field: keyof typeof fields, text: string) => (
    <label htmlFor={`${id}-${field}`} className="form-label">
      <span className="visually-hidden">{name} </span>
      {text}
    </label>
  );
  const toggleDay = (day: number, on: boolean) => onUpdate({ days: on ? [...row.days, day].sort((a, b) => a - b) : row.days.filter((other) => other !== day) });
  return (
    <fieldset className="band-row">
      <legend className="band-row-summary">
        {name}: {rowSummary(row, props.incrementMinutes, props.currency)}
      </legend>
      <div className="band-row-fields">
        <fieldset className="band-days" aria-describedby={fields.days ? `${id}-days-error` : undefined}>
          <legend className="form-label">
            <span className="visually-hidden">{name} </span>Days
          </legend>
          <div className="band-day-toggles">
            {WEEKDAY_NAMES.map((dayName, day) => (
              <label key={dayName} className="band-day-toggle">
                <input type="checkbox" checked={row.days.includes(day)} onChange={(event) => toggleDay(day, event.target.checked)} />
                <span aria-hidden="true">{SHORT_DAY_NAMES[day]}</span>
                <span className="visually-hidden">{dayName}</span>
              </label>
            ))}
          </div>
          {fieldError('days')}
        </fieldset>
        <div className="form-field band-time">
          {label('start', 'Start')}
          <input {...control('start')} className="input" placeholder="hh:mm" autoComplete="off" value={row.start} onChange={(event) => onUpdate({ start: event.target.value })} />
          {fieldError('start')}
        </div>
        <div className="form-field band-time">
          {label('end', 'End')}
          <input {...control('end')} className="input" placeholder="hh:mm" autoComplete="off" value={row.end} onChange={(event) => onUpdate({ end: event.target.value })} />
          {fieldError('end')}
        </div>
        <div className="form-field band-price">
          {label('price', 'Price')}
          <MoneyInput {...control('price')} value={row.price} onChange={(price) => onUpdate({ price })} />
          {fieldError('price')}
        </div>
        <div className="form-field band-pricing">
          <label htmlFor={`${id}-pricing`} className="form-label">
            <span className="visually-hidden">{name} </span>Charged
          </label>
          <select id={`${id}-pricing`} className="select" value={row.pricing} onChange={(event) => onUpdate({ pricing: event.target.value as Pricing })}>
            <option value="per_increment">every {props.incrementMinutes} min</option>
            <option value="flat">once per visit (flat)</option>
          </select>
        </div>
      </div>
      {problems.length > 0 && (
        <ul id={problemsId} className="field-error band-problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <div className="form-actions">
        <button type="button" className="button" aria-label={`Add a band after band ${number}`} onClick={props.onAddAfter}>
          Add after
        </button>
        <button type="button" className="button" aria-label={`Remove band ${number}`} onClick={props.onRemove}>
          Remove
        </button>
      </div>
    </fieldset>
  );
}
