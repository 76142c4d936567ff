import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { DataColumn } from '../../src/ui/data-table';
import type { ListResult, ListSearch } from '../../src/ui/list-results';
import { ListScreen, textAndStatusInForce, type ListIdentity } from '../../src/ui/list-screen';
import { setWindowWidth } from './window-width';

interface Lot {
  id: number;
  name: string;
  opened: string;
}

const COLUMNS: DataColumn<Lot>[] = [
  { id: 'name', header: 'Name', sortable: true, cell: (lot) => lot.name },
  { id: 'opened', header: 'Opened', sortable: true, sortedByDefault: true, firstDirection: 'desc', cell: (lot) => lot.opened },
];

const LOTS: ListIdentity<Lot> = { title: 'Parking Lots', noun: 'parking lot', caption: 'Lots you run', rowKey: (lot) => String(lot.id) };

const page = (rows: Lot[]): ListResult<Lot> => ({ ok: true, page: { rows, total: rows.length, totalIsLowerBound: false, page: 1, pageSize: 25 } });

function renderScreen(result: ListResult<Lot>, options: { search?: ListSearch & { q?: string }; onExport?: () => Promise<void> } = {}) {
  setWindowWidth(1280);
  const list = { result, search: options.search ?? {}, onSearch: vi.fn(), onRetry: vi.fn(), busy: false, ...(options.onExport ? { onExport: options.onExport } : {}) };
  const filters = textAndStatusInForce<'open'>(list.search, () => 'Open');
  render(<ListScreen list={list} identity={LOTS} filters={filters} filterForm={<form role="search" aria-label="Filter lots" />} columns={COLUMNS} />);
}

describe('ListScreen: a list laid out from its identity', () => {
  it('titles the page and sorts by the column marked as the default, in its first direction', () => {
    renderScreen(page([{ id: 1, name: 'Union Station Garage', opened: 'Nov 1' }]));
    expect(screen.getByRole('heading', { level: 1, name: 'Parking Lots' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Lots you run' });
    expect(within(table).getByRole('columnheader', { name: /Opened/ })).toHaveAttribute('aria-sort', 'descending');
    expect(within(table).getByRole('columnheader', { name: /Name/ })).not.toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('search', { name: 'Filter lots' })).toBeInTheDocument();
  });

  it('offers CSV only when the screen has an export, and says "nothing yet" with the plural of its noun', () => {
    renderScreen(page([]));
    expect(screen.queryByRole('button', { name: /CSV/ })).toBeNull();
    expect(screen.getByText('No parking lots yet.')).toBeInTheDocument();
  });

  it('names the text search in force in words, and offers CSV when the screen has an export', () => {
    renderScreen(page([]), { search: { q: 'union' }, onExport: async () => undefined });
    expect(screen.getByRole('button', { name: /CSV/ })).toBeInTheDocument();
    expect(screen.getByText(/“union”/)).toBeInTheDocument();
  });
});
