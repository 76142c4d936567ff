import { screen, waitFor, within } from '@testing-library/react';
import { fireEvent, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { LocationRef } from '../../src/permissions/permissions-object';
import { PlateSearch } from '../../src/routes/_authenticated/(enforcement)/-components/plate-search';
import { READ_AHEAD_MAX_AGE_MS } from '../../src/routes/_authenticated/(enforcement)/-components/read-ahead';
import { PLATE_SYMBOLS } from '../../src/worker/first-paint';
import {
  SEARCH_CATEGORIES,
  type CategoryResult,
  type PlateSearchRequest,
  type PlateSearchResult,
  type SearchAheadAnswers,
  type SearchAheadRequest,
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
    refunded: false,
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
    // The new page's first row, not the pager at its bottom: focus (and the scroll) go to the category's heading.
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Valid (25)' })).toHaveFocus());
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
    expect(await screen.findByText(/^Similar characters/, { selector: '.badge' })).toBeInTheDocument();
  });

  it('says plainly when nothing matches, and when the data was last synced', async () => {
    renderSearch(async () => answer({}));
    await userEvent.type(screen.getByLabelText('License plate'), 'zzz9');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('NO RECORD No record matches “ZZZ9”. Data synced 4 min ago.'));
    expect(screen.queryByRole('button', { name: /Search again with similar characters/ })).not.toBeInTheDocument();
  });

  it('with similar characters off, offers to turn them on when nothing matches', async () => {
    const search = vi.fn(async (_request: PlateSearchRequest) => answer({}));
    renderSearch(search);
    await userEvent.click(screen.getByRole('checkbox', { name: /Similar characters/ }));
    await userEvent.type(screen.getByLabelText('License plate'), 'zzz9');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Similar characters are off.'));
    await userEvent.click(screen.getByRole('button', { name: /Search again with similar characters/ }));
    expect(search.mock.lastCall?.[0]).toMatchObject({ text: 'ZZZ9', similar: true });
    expect(screen.getByRole('checkbox', { name: /Similar characters/ })).toBeChecked();
  });

  it('puts the verdict first, in the only live region, for each kind of answer', async () => {
    const booking = (id: number, plate: string, minutes: number, category: 'spothero' | 'parkwhiz' = 'spothero') =>
      ({
        category,
        match: 'exact',
        id,
        location_id: 2,
        license_plate: plate,
        expiry_date_time: new Date(NOW + minutes * 60_000).toISOString(),
        created_at: '2026-11-21T10:00:00Z',
        payment_amount: 9,
        payment_time: '2026-11-21T10:00:00Z',
      }) as const;
    const parker = (status: string) =>
      ({
        category: 'monthly_parkers',
        match: 'exact',
        id: 5,
        location_id: 1,
        license_plate: 'MP123',
        vehicleStatus: 'Active',
        parkerid: 9,
        fname: 'Ana',
        lname: 'Diaz',
        homephone: null,
        mobilephone: null,
        workphone: null,
        parkerStatus: status,
      }) as const;
    const one = (row: object) => ({ total: 1, exactTotal: 1, page: 0, rows: [row] }) as unknown as CategoryResult;
    const answers: Record<string, PlateSearchResult> = {
      PAID1: answer({ valid: one(transaction(1, 'PAID1', 302)), expired: one(transaction(2, 'PAID1', -600)) }),
      OLD1: answer({ expired: one(transaction(3, 'OLD1', -130)) }),
      BOOK1: answer({ spothero: { total: 2, exactTotal: 2, page: 0, rows: [booking(1, 'BOOK1', 90), booking(2, 'BOOK1', -9000)] } as unknown as CategoryResult }),
      GONE1: answer({ parkwhiz: one(booking(3, 'GONE1', -4320, 'parkwhiz')) }),
      MP123: answer({ monthly_parkers: one(parker('Active')) }),
      MP12: answer({ monthly_parkers: one(parker('Suspended')) }),
      AB: answer({ valid: { total: 2, exactTotal: 2, page: 0, rows: [transaction(1, 'AB1', 5), transaction(2, 'AB2', 9)] } as CategoryResult }),
    };
    const { container } = renderSearch(async (request) => answers[request.text] ?? answer({}));
    const field = screen.getByLabelText('License plate');
    const expectVerdict = async (text: string, headline: string, detail: RegExp, tone: string) => {
      await userEvent.clear(field);
      await userEvent.type(field, text);
      await waitFor(() => expect(container.querySelector('.verdict-headline')).toHaveTextContent(headline));
      expect(container.querySelector('.verdict-detail')?.textContent).toMatch(detail);
      expect(container.querySelector('.verdict')).toHaveClass(`verdict-${tone}`);
    };
    await expectVerdict('PAID1', 'PAID', /^PAID1 valid until Nov 21, 5:02 PM CST \(5 h 2 min left\) · Union Station Garage$/, 'ok');
    await expectVerdict('OLD1', 'EXPIRED', /^OLD1 expired 2 h 10 min ago \(Nov 21, 9:50 AM CST\) · Union Station Garage$/, 'stop');
    await expectVerdict('BOOK1', 'BOOKED', /^BOOK1 on SpotHero until .* \(1 h 30 min left\) · Navy Pier East Lot$/, 'ok');
    await expectVerdict('GONE1', 'BOOKING ENDED', /^GONE1 on ParkWhiz ended 3 d ago/, 'stop');
    await expectVerdict('MP123', 'MONTHLY PARKER', /parker Active/, 'ok');
    await expectVerdict('MP12', 'MONTHLY PARKER', /parker Suspended/, 'warn');
    await expectVerdict('AB', '2 MATCHES', /type more/, 'info');
    // The cards are not a live region: only the verdict line is announced.
    expect(container.querySelectorAll('[aria-live]')).toHaveLength(1);
    expect(container.querySelector('[aria-live]')).toHaveClass('verdict-slot');
  });

  it('shows which characters a similar match swapped', async () => {
    renderSearch(async () =>
      answer({ valid: { total: 1, exactTotal: 0, page: 0, rows: [transaction(1, '7ABO123', 5, 'similar')] } as CategoryResult }),
    );
    await userEvent.type(screen.getByLabelText('License plate'), 'AB0');
    expect(await screen.findByText('Similar characters: 0 typed, O on plate')).toBeInTheDocument();
    expect(screen.getByText('O', { selector: '.swapped' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('NO EXACT MATCH');
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

  describe('reading ahead', () => {
    const paid = (plate: string) => answer({ valid: { total: 1, exactTotal: 1, page: 0, rows: [transaction(1, plate, 45)] } as CategoryResult });
    /** The worker: answers 'A' at once, anything longer only when the test says (a busy or slow worker). */
    function slowWorker() {
      const held: Array<{ text: string; resolve: (result: PlateSearchResult) => void }> = [];
      const search = vi.fn((request: PlateSearchRequest) =>
        request.text === 'A' ? Promise.resolve(paid('A')) : new Promise<PlateSearchResult>((resolve) => held.push({ text: request.text, resolve })),
      );
      const searchAhead = vi.fn(async (request: SearchAheadRequest): Promise<SearchAheadAnswers | null> => ({ B: paid(`${request.text}B`) }));
      return { search, searchAhead, held };
    }
    function renderReadingAhead(worker: ReturnType<typeof slowWorker>, now = () => NOW) {
      const { container } = render(
        <PlateSearch search={worker.search} searchAhead={worker.searchAhead} locations={LOCATIONS} ready lastSyncedAt={NOW} now={now} />,
      );
      return { container, field: screen.getByLabelText('License plate') };
    }
    const verdictText = (container: HTMLElement) => container.querySelector('.verdict-detail')?.textContent ?? '';
    const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

    it("paints the next character's verdict with the character, before the worker answers it", async () => {
      const worker = slowWorker();
      const { searchAhead, held } = worker;
      const { container, field } = renderReadingAhead(worker);
      type(field, 'a');
      await waitFor(() =>
        expect(searchAhead).toHaveBeenCalledWith({ text: 'A', locationId: undefined, now: NOW, similar: true, firstPaintRows: 3, symbols: PLATE_SYMBOLS, budgetMs: expect.any(Number) }),
      );
      await Promise.resolve(); // the read-ahead's answers are kept
      type(field, 'ab');
      // In the keystroke's own render: the worker has not answered 'AB' yet.
      expect(held.map((h) => h.text)).toEqual(['AB']);
      expect(container.querySelector('.plate-search-results')).toHaveAttribute('data-answer-for', 'AB');
      expect(verdictText(container)).toMatch(/^AB valid until/);
      // The worker's answer still replaces it.
      held[0]!.resolve(answer({ expired: { total: 1, exactTotal: 1, page: 0, rows: [transaction(2, 'AB', -5)] } as CategoryResult }));
      await waitFor(() => expect(verdictText(container)).toMatch(/^AB expired 5 min ago/));
    });

    it('shows the previous answer at once on a backspace', async () => {
      const worker = slowWorker();
      const { searchAhead, held } = worker;
      const { container, field } = renderReadingAhead(worker);
      type(field, 'a');
      await waitFor(() => expect(searchAhead).toHaveBeenCalledTimes(1));
      type(field, 'ac'); // not read ahead: waits for the worker
      expect(container.querySelector('.plate-search-results')).toHaveAttribute('data-answer-for', 'A');
      held[0]!.resolve(answer({}));
      await waitFor(() => expect(verdictText(container)).toMatch(/^No record matches “AC”/));
      type(field, 'a');
      expect(container.querySelector('.plate-search-results')).toHaveAttribute('data-answer-for', 'A');
      expect(verdictText(container)).toMatch(/^A valid until/);
    });

    it('drops what was read ahead when the store changes, or for another location', async () => {
      const { search, searchAhead } = slowWorker();
      const props = { search, searchAhead, locations: LOCATIONS, ready: true, lastSyncedAt: NOW, now: () => NOW };
      const { container, rerender } = render(<PlateSearch {...props} storeVersion={1} />);
      const field = screen.getByLabelText('License plate');
      type(field, 'a');
      await waitFor(() => expect(searchAhead).toHaveBeenCalledTimes(1));
      await Promise.resolve();
      rerender(<PlateSearch {...props} storeVersion={2} />);
      type(field, 'ab');
      expect(container.querySelector('.plate-search-results')).toHaveAttribute('data-answer-for', 'A');

      type(field, 'a');
      await waitFor(() => expect(searchAhead).toHaveBeenCalledTimes(2));
      await Promise.resolve();
      fireEvent.change(screen.getByLabelText('Location'), { target: { value: '2' } });
      type(field, 'ab');
      expect(container.querySelector('.plate-search-results')).not.toHaveAttribute('data-answer-for', 'AB');
    });

    it('shows nothing read ahead once it is older than READ_AHEAD_MAX_AGE_MS', async () => {
      const worker = slowWorker();
      const { searchAhead } = worker;
      let now = NOW;
      const { container, field } = renderReadingAhead(worker, () => now);
      type(field, 'a');
      await waitFor(() => expect(searchAhead).toHaveBeenCalledTimes(1));
      await Promise.resolve();
      now += READ_AHEAD_MAX_AGE_MS + 1;
      type(field, 'ab');
      expect(container.querySelector('.plate-search-results')).toHaveAttribute('data-answer-for', 'A');
    });
  });
});
