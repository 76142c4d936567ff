import { screen, waitFor, within } from '@testing-library/react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { LocationRef } from '../../src/permissions/permissions-object';
import { PlateSearch } from '../../src/routes/-components/enforcement/plate-search';
import {
  SEARCH_CATEGORIES,
  type CategoryResult,
  type PlateSearchRequest,
  type PlateSearchResult,
  type TransactionRow,
} from '../../src/worker/enforcement-worker-api';

const LOCATIONS: LocationRef[] = [
  { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' },
  { location_id: 2, name: 'Navy Pier East Lot', time_zone: 'America/Chicago' },
];
const NOW = Date.parse('2026-11-21T18:00:00Z');

function transaction(id: number, plate: string, minutesToExpiry: number, match: 'exact' | 'similar' = 'exact'): TransactionRow {
  const expiry = NOW / 1000 + minutesToExpiry * 60;
  return {
    category: minutesToExpiry > 0 ? 'valid' : 'expired',
    match,
    transaction_id: id,
    location_id: 1,
    license_plate: plate,
    expiry_date_time: new Date(expiry * 1000).toISOString(),
    expiry_date_time_unix: expiry,
    phone_number: '+1 312 555 0143',
    payment_time: '2026-11-21T16:00:00Z',
    payment_amount: 12,
  } as TransactionRow;
}

function empty(): CategoryResult {
  return { total: 0, exactTotal: 0, page: 0, rows: [] } as CategoryResult;
}

function answer(parts: Partial<PlateSearchResult>): PlateSearchResult {
  return Object.fromEntries(SEARCH_CATEGORIES.map((c) => [c, parts[c] ?? empty()])) as PlateSearchResult;
}

function renderSearch(search: (r: PlateSearchRequest) => Promise<PlateSearchResult>, ready = true) {
  return render(
    <PlateSearch search={search} locations={LOCATIONS} ready={ready} lastSyncedAt={NOW - 4 * 60_000} now={() => NOW} />,
  );
}

describe('the plate search', () => {
  it('focuses the License plate field on arrival and upper-cases what is typed', async () => {
    renderSearch(async () => answer({}));
    const field = screen.getByLabelText('License plate');
    expect(field).toHaveFocus();
    await userEvent.type(field, '7abc');
    expect(field).toHaveValue('7ABC');
  });

  it('asks the worker on every keystroke and shows the categories with totals', async () => {
    const search = vi.fn(async (_request: PlateSearchRequest) =>
      answer({
        valid: { total: 12, exactTotal: 12, page: 0, rows: [transaction(1, '7ABC123', 23)] } as CategoryResult,
        expired: { total: 1, exactTotal: 1, page: 0, rows: [transaction(2, 'ABC77', -130)] } as CategoryResult,
      }),
    );
    renderSearch(search);
    await userEvent.type(screen.getByLabelText('License plate'), 'abc');
    expect(search.mock.calls.map(([r]) => r.text)).toEqual(['A', 'AB', 'ABC']);
    const valid = await screen.findByRole('region', { name: 'Valid (12)' });
    expect(within(valid).getByText('expires in 23 min', { exact: false })).toBeInTheDocument();
    expect(within(valid).getByText('•••• 0143')).toBeInTheDocument();
    expect(within(valid).getByText('Union Station Garage')).toBeInTheDocument();
    expect(within(valid).getByText('ABC', { selector: 'mark' })).toBeInTheDocument();
    const expired = screen.getByRole('region', { name: 'Expired (1)' });
    expect(within(expired).getByText('expired 2 h 10 min ago', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Monthly parkers (0)' })).toBeInTheDocument();
  });

  it('renders every row of every category, beyond the rows of the first paint', async () => {
    const rows = (from: number, minutes: number) => Array.from({ length: 10 }, (_, i) => transaction(from + i, `AB${from + i}`, minutes));
    const search = vi.fn(async () =>
      answer({
        valid: { total: 40, exactTotal: 40, page: 0, rows: rows(100, 30) } as CategoryResult,
        expired: { total: 10, exactTotal: 10, page: 0, rows: rows(200, -30) } as CategoryResult,
      }),
    );
    const { container } = renderSearch(search);
    await userEvent.type(screen.getByLabelText('License plate'), 'ab');
    await waitFor(() => expect(container.querySelectorAll('.plate-row')).toHaveLength(20));
    const expired = screen.getByRole('region', { name: 'Expired (10)' });
    const items = within(expired).getAllByRole('listitem');
    expect(items).toHaveLength(10);
    expect(items.at(-1)?.querySelector('.plate')?.textContent).toBe('AB209');
  });

  it('pages one category at a time', async () => {
    const search = vi.fn(async (request: PlateSearchRequest) => {
      const page = request.pages?.valid ?? 0;
      return answer({ valid: { total: 25, exactTotal: 25, page, rows: [transaction(page + 1, `P${page}ABC`, 10)] } as CategoryResult });
    });
    renderSearch(search);
    await userEvent.type(screen.getByLabelText('License plate'), 'abc');
    const pager = await screen.findByRole('navigation', { name: 'Valid pages' });
    expect(within(pager).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(pager).getByText('Page 2 of 3')).toBeInTheDocument());
    expect(search.mock.lastCall?.[0].pages).toEqual({ valid: 1 });
  });

  it('limits the search to the chosen location and passes the similar-characters toggle', async () => {
    const search = vi.fn(async (_request: PlateSearchRequest) => answer({}));
    renderSearch(search);
    await userEvent.type(screen.getByLabelText('License plate'), 'x');
    expect(search.mock.lastCall?.[0]).toMatchObject({ text: 'X', locationId: undefined, similar: true });
    await userEvent.selectOptions(screen.getByLabelText('Location'), 'Navy Pier East Lot');
    expect(search.mock.lastCall?.[0]).toMatchObject({ locationId: 2 });
    await userEvent.click(screen.getByRole('checkbox', { name: /Similar characters/ }));
    expect(search.mock.lastCall?.[0]).toMatchObject({ locationId: 2, similar: false });
  });

  it('marks similar matches', async () => {
    renderSearch(async () =>
      answer({ valid: { total: 1, exactTotal: 0, page: 0, rows: [transaction(1, '7ABO123', 5, 'similar')] } as CategoryResult }),
    );
    await userEvent.type(screen.getByLabelText('License plate'), 'AB0');
    expect(await screen.findByText('Similar characters')).toBeInTheDocument();
  });

  it('says plainly when nothing matches, and when the data was last synced', async () => {
    renderSearch(async () => answer({}));
    await userEvent.type(screen.getByLabelText('License plate'), 'zzz9');
    expect(await screen.findByText('No record matches “ZZZ9”. Data synced 4 min ago.')).toBeInTheDocument();
  });

  it('waits while the store is not ready, keeping what was typed', async () => {
    const search = vi.fn(async (_request: PlateSearchRequest) => answer({}));
    renderSearch(search, false);
    await userEvent.type(screen.getByLabelText('License plate'), 'abc');
    expect(search).not.toHaveBeenCalled();
    expect(screen.getByLabelText('License plate')).toHaveValue('ABC');
  });

  it('shows a failed search in words', async () => {
    renderSearch(async () => {
      throw new Error('The store is closed');
    });
    await userEvent.type(screen.getByLabelText('License plate'), 'a');
    expect(await screen.findByRole('alert')).toHaveTextContent('Search failed: The store is closed');
  });
});
