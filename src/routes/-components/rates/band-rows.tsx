import type { Pricing } from '../../../rates/rate-set';
import { WEEKDAY_NAMES } from '../../../rates/rate-set';
import type { RateProblem } from '../../../rates/validate';
import { newRowKey, type BandRow } from './rate-draft';

/**
 * The bands of a rate set as rows of a table, one control per field, each labelled with its row ("Band 3 start").
 * Each `validate` problem is shown under the band it belongs to as soon as it exists.
 */
export function BandRows(props: {
  rows: BandRow[];
  problems: readonly RateProblem[];
  onChange: (rows: BandRow[]) => void;
}) {
  const { rows, problems, onChange } = props;
  const update = (key: number, change: Partial<BandRow>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const addAfter = (index: number) => {
    const before = rows[index];
    const row: BandRow = before
      ? { key: newRowKey(), day: before.day, start: before.end, end: '24:00', pricing: before.pricing, price: before.price }
      : { key: newRowKey(), day: 0, start: '00:00', end: '24:00', pricing: 'per_increment', price: '0.00' };
    onChange([...rows.slice(0, index + 1), row, ...rows.slice(index + 1)]);
  };
  return (
    <div className="table-scroll" role="region" aria-label="Bands" tabIndex={0}>
      <table className="data-table">
        <caption>Bands (times on the location’s clock, end exclusive; 24:00 is midnight at the end of the day)</caption>
        <thead>
          <tr>
            <th scope="col">Band</th>
            <th scope="col">Day</th>
            <th scope="col">Start</th>
            <th scope="col">End</th>
            <th scope="col">Pricing</th>
            <th scope="col">Price ($)</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        {rows.map((row, index) => {
          const name = `Band ${index + 1}`;
          const own = problems.filter((problem) => problem.band === index);
          const problemId = `band-problems-${row.key}`;
          const described = own.length > 0 ? { 'aria-describedby': problemId, 'aria-invalid': true } : {};
          return (
            <tbody key={row.key}>
              <tr>
                <th scope="row">{index + 1}</th>
                <td>
                  <select className="select" aria-label={`${name} day`} value={row.day} {...described} onChange={(event) => update(row.key, { day: Number(event.target.value) })}>
                    {WEEKDAY_NAMES.map((dayName, day) => (
                      <option key={dayName} value={day}>
                        {dayName}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <input className="input" aria-label={`${name} start`} value={row.start} size={5} {...described} onChange={(event) => update(row.key, { start: event.target.value })} />
                </td>
                <td>
                  <input className="input" aria-label={`${name} end`} value={row.end} size={5} {...described} onChange={(event) => update(row.key, { end: event.target.value })} />
                </td>
                <td>
                  <select
                    className="select"
                    aria-label={`${name} pricing`}
                    value={row.pricing}
                    onChange={(event) => update(row.key, { pricing: event.target.value as Pricing })}
                  >
                    <option value="per_increment">Per increment</option>
                    <option value="flat">Flat</option>
                  </select>
                </td>
                <td>
                  <input className="input" aria-label={`${name} price`} inputMode="decimal" value={row.price} size={8} {...described} onChange={(event) => update(row.key, { price: event.target.value })} />
                </td>
                <td>
                  <button type="button" className="button" aria-label={`Add a band after band ${index + 1}`} onClick={() => addAfter(index)}>
                    Add after
                  </button>{' '}
                  <button type="button" className="button" aria-label={`Remove band ${index + 1}`} onClick={() => onChange(rows.filter((other) => other.key !== row.key))}>
                    Remove
                  </button>
                </td>
              </tr>
              {own.length > 0 && (
                <tr>
                  <td colSpan={7}>
                    <ul id={problemId} className="field-error band-problems">
                      {own.map((problem) => (
                        <li key={`${problem.path}-${problem.message}`}>{problem.message}</li>
                      ))}
                    </ul>
                  </td>
                </tr>
              )}
            </tbody>
          );
        })}
      </table>
      {rows.length === 0 && (
        <button type="button" className="button" onClick={() => addAfter(-1)}>
          Add a band
        </button>
      )}
    </div>
  );
}
