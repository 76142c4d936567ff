import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { FilterForm, filterChange, LocationFilter, TextAndStatusFilters, type SearchUpdate } from '../../src/ui/filter-form';

interface Search {
  q?: string | undefined;
  status?: string | undefined;
  locationId?: number | undefined;
  page?: number | undefined;
}

const STATUSES = ['active', 'inactive'] as const;

/** The URL's search, as a route would keep it; every change is recorded and shown. */
function Harness({ initial }: { initial: Search }) {
  const [search, setSearch] = useState<Search>(initial);
  const onSearch: SearchUpdate<Search> = (update) => setSearch((current) => update(current));
  return (
    <>
      <TextAndStatusFilters
        label="Filter garages"
        textLabel="Name"
        search={search}
        onSearch={onSearch}
        statuses={STATUSES}
        statusLabel={(status) => (status === 'active' ? 'Active' : 'Inactive')}
      />
      <FilterForm label="Filter by place">
        <LocationFilter
          locations={[
            { location_id: 7, name: 'Union Station' },
            { location_id: 9, name: 'Navy Pier' },
          ]}
          value={search.locationId}
          onChange={(locationId) => filterChange(onSearch, { locationId })}
        />
      </FilterForm>
      <button type="button" onClick={() => setSearch({})}>
        Clear filters
      </button>
      <output aria-label="URL">{JSON.stringify(search)}</output>
    </>
  );
}

const url = () => JSON.parse(screen.getByRole('status', { name: 'URL' }).textContent ?? '{}') as Search;

describe('list filter kit', () => {
  it('applies typed text on Search only, trimmed, and a status at once with the text typed so far, back at page 1', async () => {
    render(<Harness initial={{ page: 3 }} />);
    const name = screen.getByRole('searchbox', { name: 'Name' });
    await userEvent.type(name, '  loop ');
    expect(url()).toEqual({ page: 3 });
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(url()).toEqual({ q: 'loop' });

    await userEvent.clear(name);
    await userEvent.type(name, 'pier');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Inactive');
    expect(url()).toEqual({ q: 'pier', status: 'inactive' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Any status');
    expect(url().status).toBeUndefined();
  });

  it('shows a new URL’s own text in place of what was typed', async () => {
    render(<Harness initial={{ q: 'loop' }} />);
    const name = screen.getByRole('searchbox', { name: 'Name' });
    expect(name).toHaveValue('loop');
    await userEvent.type(name, 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(name).toHaveValue('');
  });

  it('shows a status this list does not offer as any status', () => {
    render(<Harness initial={{ status: 'disabled' }} />);
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveDisplayValue('Any status');
  });

  it('chooses one of the user’s locations by id, or all of them', async () => {
    render(<Harness initial={{ page: 2 }} />);
    const location = screen.getByRole('combobox', { name: 'Location' });
    expect(location).toHaveDisplayValue('All your locations');
    await userEvent.selectOptions(location, 'Navy Pier');
    expect(url()).toEqual({ locationId: 9 });
    await userEvent.selectOptions(location, 'All your locations');
    expect(url().locationId).toBeUndefined();
  });
});
