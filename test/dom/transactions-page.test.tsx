import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { TransactionDetail, TransactionRow } from '../../src/contract/transactions';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { pageOf, sectionApi } from './section-api';

const payment: TransactionRow = {
  transaction_id: 4021,
  location_id: 3,
  location_name: 'Pike Place Market Garage',
  time_zone: 'America/Los_Angeles',
  license_plate: 'ABC1234',
  payment_time: '2026-11-20T18:04:00Z',
  expiry_date_time: '2026-11-20T20:04:00Z',
  amount_cents: 1250,
  fee_cents: 66,
  refunded_cents: 0,
  payment_method: 'card',
  status: 'paid',
  phone_last4: '0142',
};
const detail: TransactionDetail = { ...payment, processor_reference: 'ch_4021', settled_date: '2026-11-23', refunds: [] };
const locations = [{ location_id: 3, name: 'Pike Place Market Garage', time_zone: 'America/Los_Angeles' }];

function openSearch(url: string) {
  const { api, calls } = sectionApi({
    get: { '/transactions': pageOf([payment], { total: 10_000, totalIsLowerBound: true }), '/transactions/locations': locations },
  });
  return { ...renderConsole(url, { permissions: personaPermissions('finance'), api }), calls };
}

describe('the transaction search', () => {
  it('shows payments in their location’s zone, money from cents, masked phones and "10,000+"', async () => {
    openSearch('/refund-portal/transactions');
    const table = await screen.findByRole('table', { name: 'Transactions found' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Nov 20, 2026, 10:04 AM PST');
    expect(row).toHaveTextContent('$12.50');
    expect(row).toHaveTextContent('•••• •••• 0142');
    expect(screen.getByRole('navigation', { name: 'Pages' })).toHaveTextContent('1–25 of 10,000+ transactions · Page 1 of 400+');
    expect(screen.getByRole('combobox', { name: 'Location' })).toHaveTextContent('Pike Place Market Garage');
  });

  it('checks the fields with the contract’s schema before searching, then puts the filters in the URL', async () => {
    const { router } = openSearch('/refund-portal/transactions?sort=amount&dir=desc&page=3');
    await screen.findByRole('table', { name: 'Transactions found' });
    await userEvent.type(screen.getByLabelText('Phone (last 4 digits)'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Phone (last 4 digits) must be the last 4 digits of the phone.')).toBeInTheDocument();
    expect(screen.getByLabelText('Phone (last 4 digits)')).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.search).toEqual({ sort: 'amount', dir: 'desc', page: 3 });

    await userEvent.type(screen.getByLabelText('Phone (last 4 digits)'), '34');
    await userEvent.type(screen.getByLabelText('License plate'), 'bc1');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(router.state.location.search).toEqual({ sort: 'amount', dir: 'desc', phone: '1234', plate: 'bc1' }),
    );
  });

  it('opens a payment keeping the search, and comes back to it', async () => {
    const { api } = sectionApi({
      get: {
        '/transactions': pageOf([payment]),
        '/transactions/locations': locations,
        '/transactions/4021': detail,
        '/transactions/4021/history': [],
      },
    });
    const { router } = renderConsole('/refund-portal/transactions?plate=ABC', { permissions: personaPermissions('finance'), api });
    await userEvent.click(await screen.findByRole('link', { name: 'Transaction 4021' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Transaction 4021' })).toBeInTheDocument();
    expect(screen.getByText('•••• •••• 0142')).toBeInTheDocument();
    expect(screen.getByText('Nov 23, 2026')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: '← Back to the search' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/refund-portal/transactions'));
    expect(router.state.location.search).toEqual({ plate: 'ABC' });
  });

  it('a payment the server does not give (missing, or not at the user’s locations) is "not found"', async () => {
    const notFound = () => {
      throw new ApiError('Transaction 99 was not found among the payments of your locations.', { status: 404 });
    };
    const { api } = sectionApi({ get: { '/transactions/99': notFound, '/transactions/99/history': notFound } });
    renderConsole('/transactions/99', { permissions: personaPermissions('finance'), api });
    expect(await screen.findByRole('heading', { level: 1, name: 'Transaction not found' })).toBeInTheDocument();
    expect(screen.getByText(/not at one of your locations/)).toBeInTheDocument();
  });
});
