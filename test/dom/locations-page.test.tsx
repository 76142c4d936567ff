import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '../../src/api/client';
import { permissionsFor, personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { demoLocation, pageOf, sectionApi } from './section-api';

const twoLocations = pageOf([demoLocation(1), demoLocation(2)], { total: 60 });

function openList(url: string, options: { answer?: unknown; permissions?: ReturnType<typeof personaPermissions> } = {}) {
  const { api, calls } = sectionApi({ get: { '/locations': options.answer ?? twoLocations } });
  const rendered = renderConsole(url, { permissions: options.permissions ?? personaPermissions('admin'), api });
  return { ...rendered, calls };
}

const table = () => screen.findByRole('table', { name: 'Locations you can view' });

describe('the locations list', () => {
  it('shows the page the server returns, asking with the URL’s filter, sort and page', async () => {
    const { calls } = openList('/locations?q=union&status=active&sort=capacity&dir=desc&page=2');
    expect(await screen.findByRole('link', { name: 'Union Station Garage' })).toBeInTheDocument();
    expect(within(await table()).getAllByRole('row')).toHaveLength(3);
    expect(calls[0]).toEqual({
      method: 'GET',
      path: '/locations',
      payload: { q: 'union', status: 'active', sort: 'capacity', dir: 'desc', page: 2 },
    });
    expect(screen.getByLabelText('Name or address')).toHaveValue('union');
  });

  it('sorts from a header button: the URL changes, the sorted column says so with aria-sort', async () => {
    const { router, calls } = openList('/locations');
    const grid = await table();
    const nameHeader = within(grid).getByRole('columnheader', { name: /Name/ });
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');

    await userEvent.click(within(grid).getByRole('button', { name: /Spaces/ }));
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'capacity', dir: 'desc' }));
    await waitFor(() => expect(calls.at(-1)?.payload).toEqual({ sort: 'capacity', dir: 'desc' }));
    expect(within(await table()).getByRole('columnheader', { name: /Spaces/ })).toHaveAttribute('aria-sort', 'descending');
    expect(within(await table()).getByRole('columnheader', { name: /Name/ })).not.toHaveAttribute('aria-sort');

    await userEvent.click(within(await table()).getByRole('button', { name: /Spaces/ }));
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'capacity', dir: 'asc' }));
  });

  it('pages: page x of y, next page and page size in the URL', async () => {
    const { router } = openList('/locations');
    await table();
    expect(screen.getByRole('navigation', { name: 'Pages' })).toHaveTextContent('1–25 of 60 locations · Page 1 of 3');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ page: 2 }));
    await userEvent.selectOptions(await screen.findByLabelText('Rows per page'), '50');
    await waitFor(() => expect(router.state.location.search).toEqual({ pageSize: 50 }));
  });

  it('a search and a status choice go to the URL and start again on page 1', async () => {
    const { router } = openList('/locations?page=2');
    await table();
    await userEvent.type(screen.getByLabelText('Name or address'), 'pier');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ q: 'pier' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'inactive');
    await waitFor(() => expect(router.state.location.search).toEqual({ q: 'pier', status: 'inactive' }));
  });

  it('drops a parameter the contract refuses instead of failing the page', async () => {
    const { calls } = openList('/locations?page=abc&sort=colour&q=pier');
    await table();
    expect(calls[0]?.payload).toEqual({ q: 'pier' });
  });

  it('says why a list is empty, naming the filters, and clears them', async () => {
    const { router } = openList('/locations?q=zzz&status=inactive&sort=capacity', { answer: pageOf([]) });
    expect(await screen.findByText(/No locations match/)).toHaveTextContent(
      'No locations match Search: “zzz” and Status: Inactive.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'capacity' }));
  });

  it('says so when nothing is assigned', async () => {
    openList('/locations', { answer: pageOf([]) });
    expect(await screen.findByText('No locations are assigned to you yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('shows a failed load in place, beside the filters, with a retry that asks again', async () => {
    let failures = 1;
    const { api, calls } = sectionApi({
      get: {
        '/locations': () => {
          if (failures-- > 0) throw new ApiError('Database is busy, try again', { status: 503 });
          return twoLocations;
        },
      },
    });
    renderConsole('/locations', { permissions: personaPermissions('admin'), api });
    expect(await screen.findByRole('alert')).toHaveTextContent('Database is busy, try again');
    expect(screen.getByRole('search', { name: 'Filter locations' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await table()).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/locations')).toHaveLength(2);
  });

  it('says a refused list (403) in place, with no Retry and no red toast on top', async () => {
    // The real client, so that its error toast (onError) would be raised unless the loader asks it to keep quiet.
    const onError = vi.fn();
    const api = createApiClient({
      apiBase: '/api',
      getIdToken: async () => 'id-token',
      getSessionToken: () => 'session-token',
      onSessionError: vi.fn(),
      onError,
      fetch: async () =>
        new Response(JSON.stringify({ success: false, message: 'You do not have permission to view locations.' }), {
          status: 403,
          headers: { 'Content-Type': 'application/json' },
        }),
    });
    renderConsole('/locations', { permissions: personaPermissions('admin'), api });
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission to view locations.');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(onError).not.toHaveBeenCalled();
  });

  it('offers Edit only where the user holds location edit', async () => {
    openList('/locations', { permissions: permissionsFor({ lo: { v: [1, 2], e: [2] } }) });
    await table();
    expect(screen.queryByRole('link', { name: 'Edit Union Station Garage' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Navy Pier East Lot' })).toBeInTheDocument();
    // Edit implies add (spec §5): this user may add locations.
    expect(screen.getByRole('link', { name: 'Add location' })).toBeInTheDocument();
  });

  it('a view-only user gets no Edit and no Add location', async () => {
    openList('/locations', { permissions: permissionsFor({ lo: { v: [1, 2] } }) });
    await table();
    expect(screen.queryByRole('link', { name: /^Edit / })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add location' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Union Station Garage' })).toBeInTheDocument();
  });

  it('remembers the column choice in this browser', async () => {
    const first = openList('/locations');
    await table();
    expect(screen.getByRole('columnheader', { name: 'Address' })).toBeInTheDocument();
    await userEvent.click(screen.getByText('Columns'));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Address' }));
    expect(screen.queryByRole('columnheader', { name: 'Address' })).not.toBeInTheDocument();
    first.unmount();

    openList('/locations');
    await table();
    expect(screen.queryByRole('columnheader', { name: 'Address' })).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /Spaces/ })).toBeInTheDocument();
  });

  it('exports the filtered rows, without paging, as CSV', async () => {
    const { api } = sectionApi({ get: { '/locations': twoLocations } });
    renderConsole('/locations?status=active&page=2&sort=name', { permissions: personaPermissions('admin'), api });
    await table();
    URL.createObjectURL = () => 'blob:csv';
    URL.revokeObjectURL = () => undefined;
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(api.download).toHaveBeenCalled());
    const [path, payload] = (api.download as unknown as { mock: { calls: unknown[][] } }).mock.calls[0]!;
    expect(path).toBe('/locations/export');
    expect(payload).toEqual({ status: 'active', sort: 'name' });
  });
});
