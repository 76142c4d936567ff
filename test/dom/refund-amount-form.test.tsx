import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { TransactionDetail } from '../../src/contract/transactions';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { sectionApi } from './section-api';

vi.setConfig({ testTimeout: 20_000 });

const payment: TransactionDetail = {
  transaction_id: 4021,
  location_id: 3,
  location_name: 'Pike Place Market Garage',
  time_zone: 'America/Los_Angeles',
  license_plate: 'ABC1234',
  payment_time: '2026-11-20T18:04:00Z',
  expiry_date_time: '2026-11-20T20:04:00Z',
  amount_cents: 1250,
  fee_cents: 66,
  refunded_cents: 250,
  payment_method: 'card',
  status: 'partially_refunded',
  phone_last4: '0142',
  processor_reference: 'ch_4021',
  settled_date: '2026-11-23',
  refunds: [],
};

function openPayment(post: Record<string, unknown>) {
  const { api, calls } = sectionApi({ get: { '/transactions/4021': payment, '/transactions/4021/history': [] }, post });
  renderConsole('/transactions/4021', { permissions: personaPermissions('admin'), api });
  return calls;
}

describe('the amount of a refund ticket', () => {
  it('starts at what is left, in dollars, and is sent in cents', async () => {
    const calls = openPayment({ '/refund-tickets': () => new Promise(() => undefined) });
    const form = await screen.findByRole('form', { name: 'Open a refund ticket' });
    const amount = within(form).getByRole('textbox', { name: 'Amount' });
    expect(amount).toHaveValue('10.00');
    await userEvent.clear(amount);
    await userEvent.type(amount, '$7.5');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Reason' }), 'Charged twice');
    await userEvent.click(within(form).getByRole('button', { name: 'Open a refund ticket' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'POST')?.payload).toEqual({ transaction_id: 4021, amount_cents: 750, reason: 'Charged twice' });
  });

  it('refuses a negative amount in words at the field, and places the server’s amount_cents message there', async () => {
    const calls = openPayment({
      '/refund-tickets': () => {
        throw new ApiError('Invalid', { status: 400, data: { fieldErrors: { amount_cents: 'At most $8.00 is left to refund.' } } });
      },
    });
    const form = await screen.findByRole('form', { name: 'Open a refund ticket' });
    const amount = within(form).getByRole('textbox', { name: 'Amount' });
    await userEvent.clear(amount);
    await userEvent.type(amount, '-1');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Reason' }), 'Charged twice');
    await userEvent.click(within(form).getByRole('button', { name: 'Open a refund ticket' }));
    expect(await within(form).findByText('The amount cannot be negative.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    // More than is left is stopped at the field, before anything is sent.
    await userEvent.clear(amount);
    await userEvent.type(amount, '10.01');
    await userEvent.click(within(form).getByRole('button', { name: 'Open a refund ticket' }));
    expect(await within(form).findByText('The amount is more than what is left to refund: at most $10.00.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    // What the server refuses (a refund made meanwhile) is said at the field too.
    await userEvent.clear(amount);
    await userEvent.type(amount, '9');
    await userEvent.click(within(form).getByRole('button', { name: 'Open a refund ticket' }));
    expect(await within(form).findByText('At most $8.00 is left to refund.')).toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
  });
});
