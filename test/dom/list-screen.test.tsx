import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataColumn } from '../../src/ui/data-table';
import { ListFilters } from '../../src/ui/list-filters';
import { ListResults, type ListResult, type ListSearch } from '../../src/ui/list-results';
import { setWindowWidth } from './window-width';

interface Lot {
  id: number;
  name: string;
  zone: string;
  grace: number;
}

interface LotSearch extends ListSearch {
  q?: string | undefined;
  status?: string | undefined;
  show?: string | undefined;
}

const COLUMNS: DataColumn<Lot>[] = [
  { id: 'name', header: 'Name', sortable: true, alwaysShown: true, cell: (lot) => lot.name },
  { id: 'zone', header: 'Time zone', sortable: true, priority: 2, cell: (lot) => lot.zone },
  { id: 'grace', header: 'Grace period', numeric: true, priority: 3, cell: (lot) => String(lot.grace) },
  { id: 'actions', header: 'Actions', actions: true, cell: (lot) => <button type="button">Edit {lot.name}</button> },
];

const page = (rows: Lot[]) => ({ rows, total: rows.length, totalIsLowerBound: false, page: 1, pageSize: 25 });
const lots = [
  { id: 1, name: 'Union Station Garage', zone: 'America/Chicago', grace: 10 },
  { id: 2, name: 'Pike Place Market Garage', zone: 'America/Los_Angeles', grace: 5 },
];

const CURRENT: LotSearch = { q: 'union', status: 'inactive', show: 'officers', sort: 'zone', dir: 'desc', page: 3, pageSize: 50 };

function renderList(result: ListResult<Lot> | null, options: { search?: LotSearch; keepOnClear?: readonly (keyof LotSearch)[] } = {}) {
  const onSearch = vi.fn<(update: (current: LotSearch) => LotSearch) => void>();
  const onRetry = vi.fn();
  const search = options.search ?? {};
  render(
    <ListResults
      result={result}
      search={search}
      onSearch={onSearch}
      onRetry={onRetry}
      busy={false}
      noun={{ one: 'lot', other: 'lots' }}
      caption="Lots"
      columns={COLUMNS}
      rowKey={(lot) => String(lot.id)}
      defaultSort={{ key: 'name', dir: 'asc' }}
      columnChoiceKey="test-lots"
      filters={search.status ? [{ label: 'Status', value: 'Inactive' }] : []}
      whenUnfiltered={<p>No lots yet.</p>}
      {...(options.keepOnClear ? { keepOnClear: options.keepOnClear } : {})}
    />,
  );
  /** The search the last `onSearch` call would make of `CURRENT`. */
  const lastSearch = () => onSearch.mock.calls.at(-1)![0](CURRENT);
  return { onSearch, onRetry, lastSearch };
}

/** jsdom lays nothing out: these give elements the widths a browser would. */
function stubLayout(sizes: { clientWidth: number; scrollWidth: number }) {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(sizes.clientWidth);
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(sizes.scrollWidth);
}

afterEach(() => vi.restoreAllMocks());

describe('ListResults: the list in each of its states', () => {
  it('shows a skeleton, announced as loading, while the first page loads', () => {
    renderList(null);
    expect(screen.getByRole('status')).toHaveTextContent('Loading lots…');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('names the filters that left it empty and clears them, keeping sort, page size and what the screen keeps', async () => {
    const { lastSearch } = renderList({ ok: true, page: page([]) }, { search: { status: 'inactive' }, keepOnClear: ['show'] });
    expect(screen.getByText(/No lots match/)).toHaveTextContent('No lots match Status: Inactive.');
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(lastSearch()).toEqual({ sort: 'zone', dir: 'desc', pageSize: 50, show: 'officers' });
  });

  it('says there is nothing yet when empty without filters, with nothing to clear', () => {
    renderList({ ok: true, page: page([]) });
    expect(screen.getByText('No lots yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('shows a failed load in place with Retry', async () => {
    const { onRetry } = renderList({ ok: false, message: 'The server is restarting.', status: 503 });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Could not load lots');
    expect(alert).toHaveTextContent('The server is restarting.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('says why a refused load failed, without a Retry that would get the same answer', () => {
    renderList({ ok: false, message: 'You do not have permission to view location 4.', status: 403 });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('You do not have permission to view location 4.');
    expect(within(alert).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('sends a page past the row limit back to page 1 instead of retrying it', async () => {
    const { onRetry, lastSearch } = renderList({
      ok: false,
      status: 400,
      message: 'Invalid query: page 401 starts past the first 10,000 rows; narrow the search or export the CSV, which has every row.',
    });
    expect(screen.getByRole('alert')).toHaveTextContent('narrow the search or export CSV');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).not.toHaveBeenCalled();
    expect(lastSearch()).toMatchObject({ q: 'union', sort: 'zone', page: undefined });
  });

  it('shows the rows in a table whose sort headers write the URL and start again at page 1', async () => {
    const { lastSearch } = renderList({ ok: true, page: page(lots) }, { search: { sort: 'zone', dir: 'desc' } });
    const table = screen.getByRole('table', { name: 'Lots' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('columnheader', { name: /Time zone/ })).toHaveAttribute('aria-sort', 'descending');
    await userEvent.click(within(table).getByRole('button', { name: /Name/ }));
    expect(lastSearch()).toMatchObject({ q: 'union', sort: 'name', dir: 'asc', page: undefined });
    expect(screen.getByRole('navigation', { name: 'Pages' })).toHaveTextContent('1–2 of 2 lots');
  });
});

describe('DataTable: a table that fits', () => {
  it('leaves out low-priority columns first as its box narrows, never the actions', () => {
    stubLayout({ clientWidth: 800, scrollWidth: 800 });
    renderList({ ok: true, page: page(lots) });
    const table = screen.getByRole('table', { name: 'Lots' });
    expect(within(table).getByRole('columnheader', { name: /Time zone/ })).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Grace period' })).not.toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Edit Union Station Garage' })).toBeInTheDocument();
    // The column choice says what is on screen, and the actions are not offered for hiding.
    expect(screen.getByRole('checkbox', { name: 'Grace period' })).not.toBeChecked();
    expect(screen.queryByRole('checkbox', { name: 'Actions' })).not.toBeInTheDocument();
  });

  it('shows a left-out column once the user ticks it', async () => {
    stubLayout({ clientWidth: 400, scrollWidth: 400 });
    renderList({ ok: true, page: page(lots) });
    const table = screen.getByRole('table', { name: 'Lots' });
    expect(within(table).queryByRole('columnheader', { name: /Time zone/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByText('Columns'));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Grace period' }));
    expect(within(table).getByRole('columnheader', { name: 'Grace period' })).toBeInTheDocument();
  });

  it('keeps every column when the width is not known (no layout)', () => {
    renderList({ ok: true, page: page(lots) });
    expect(screen.getByRole('columnheader', { name: 'Grace period' })).toBeInTheDocument();
  });

  it('says nothing of scrolling while the table fits its box', () => {
    stubLayout({ clientWidth: 1200, scrollWidth: 1200 });
    renderList({ ok: true, page: page(lots) });
    expect(screen.queryByText(/Scroll sideways/)).not.toBeInTheDocument();
  });

  it('says to scroll sideways when the table is wider than its box, in the region’s description', () => {
    stubLayout({ clientWidth: 1200, scrollWidth: 1500 });
    renderList({ ok: true, page: page(lots) });
    expect(screen.getByText('Scroll sideways for more columns →')).toBeVisible();
    expect(screen.getByRole('region', { name: 'Lots' })).toHaveAccessibleDescription('Scroll sideways for more columns →');
  });
});

function FilterForm({ invalid = false }: { invalid?: boolean }) {
  const [sent, setSent] = useState(0);
  return (
    <form
      role="search"
      aria-label="Filter lots"
      onSubmit={(event) => {
        event.preventDefault();
        setSent(sent + 1);
      }}
    >
      <label>
        Name <input aria-invalid={invalid || undefined} />
      </label>
      <button type="submit">Search</button>
      <output>{sent} searches</output>
    </form>
  );
}

describe('ListFilters: results first on a phone', () => {
  it('shows the filters inline on a wide screen, with no button', () => {
    render(
      <ListFilters count={2}>
        <FilterForm />
      </ListFilters>,
    );
    expect(screen.getByRole('search', { name: 'Filter lots' })).toBeVisible();
    expect(screen.queryByRole('button', { name: /Filters/ })).not.toBeInTheDocument();
  });

  it('puts them behind "Filters (n)" on a phone, which opens and closes them', async () => {
    setWindowWidth(360);
    render(
      <ListFilters count={2}>
        <FilterForm />
      </ListFilters>,
    );
    const toggle = screen.getByRole('button', { name: 'Filters (2)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(panel).not.toBeVisible();
    expect(screen.queryByRole('search')).not.toBeInTheDocument();

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(within(panel).getByRole('search', { name: 'Filter lots' })).toBeVisible();

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(panel).not.toBeVisible();
  });

  it('says "Filters" alone when none is in force, and shows them again when the screen widens', () => {
    setWindowWidth(360);
    render(
      <ListFilters count={0}>
        <FilterForm />
      </ListFilters>,
    );
    expect(screen.getByRole('button', { name: 'Filters' })).toBeInTheDocument();
    act(() => setWindowWidth(1024));
    expect(screen.queryByRole('button', { name: 'Filters' })).not.toBeInTheDocument();
    expect(screen.getByRole('search', { name: 'Filter lots' })).toBeVisible();
  });

  it('closes after a search to show the results, but not while a field is refused', async () => {
    setWindowWidth(360);
    const { rerender } = render(
      <ListFilters count={1}>
        <FilterForm invalid />
      </ListFilters>,
    );
    const toggle = screen.getByRole('button', { name: 'Filters (1)' });
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByText('1 searches')).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    rerender(
      <ListFilters count={1}>
        <FilterForm />
      </ListFilters>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });
});
