import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { LocationViolation } from '../../src/contract/violations';
import { permissionsFor, personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { demoLocation, sectionApi } from './section-api';

vi.setConfig({ testTimeout: 20_000 });

const violation = (code: string, label: string, fine_cents: number, changes: Partial<LocationViolation> = {}): LocationViolation => ({
  code,
  label,
  fine_cents,
  position: 1,
  active: true,
  in_use: false,
  version: 1,
  ...changes,
});
const LIST = [violation('no_payment', 'No payment', 5000, { in_use: true }), violation('fire_lane', 'Fire lane', 15000, { position: 2, active: false, version: 3 })];

function openLocation(post: Record<string, unknown> = {}, permissions = personaPermissions('admin')) {
  let list = LIST;
  const { api, calls } = sectionApi({
    get: { '/locations/3': demoLocation(3), '/locations/3/history': [], '/locations/3/violations': () => list, '/locations': { rows: [], total: 0, totalIsLowerBound: false, page: 1, pageSize: 25 } },
    post,
  });
  renderConsole('/edit-location/3', { permissions, api });
  return { calls, setList: (next: LocationViolation[]) => (list = next) };
}
/** The section once its list has loaded (its own chunk, then the API). */
async function section() {
  const found = await screen.findByRole('region', { name: 'Violations' }, { timeout: 10_000 });
  await within(found).findByRole('table', undefined, { timeout: 10_000 });
  return found;
}

describe('a location’s violations on its page', () => {
  it('lists them with their usual fines in dollars and whether they are active or on citations', async () => {
    openLocation();
    const rows = within(await section()).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'ViolationUsual fineStatusActions',
      'No payment$50.00Active · on citationsEditDeactivate',
      'Fire lane$150.00InactiveEditActivate',
    ]);
  });

  it('adds one with the fine typed in dollars, checking it first', async () => {
    const { calls } = openLocation({ '/locations/3/violations': (body: { label: string; fine_cents: number }) => violation('towing', body.label, body.fine_cents) });
    const form = within(await section()).getByRole('form', { name: 'Add a violation' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Violation' }), 'Towing zone');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Usual fine ($)' }), '12.505');
    await userEvent.click(within(form).getByRole('button', { name: 'Add violation' }));
    expect(await within(form).findByText('The fine has at most two digits after the point (cents).')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
    const fine = within(form).getByRole('textbox', { name: 'Usual fine ($)' });
    await userEvent.clear(fine);
    await userEvent.type(fine, '12.50');
    await userEvent.click(within(form).getByRole('button', { name: 'Add violation' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toEqual([{ method: 'POST', path: '/locations/3/violations', payload: { label: 'Towing zone', fine_cents: 1250 } }]));
    await waitFor(() => expect(within(form).getByRole('textbox', { name: 'Violation' })).toHaveValue(''));
  });

  it('shows the server’s refusal at the field', async () => {
    openLocation({
      '/locations/3/violations': () => {
        throw new ApiError('Check the fields.', { status: 400, data: { fieldErrors: { label: 'An active violation named "No payment" exists at this location already.' } } });
      },
    });
    const form = within(await section()).getByRole('form', { name: 'Add a violation' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Violation' }), 'No payment');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Usual fine ($)' }), '5');
    await userEvent.click(within(form).getByRole('button', { name: 'Add violation' }));
    expect(await within(form).findByText('An active violation named "No payment" exists at this location already.')).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'Violation' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('renames and changes a fine from the version shown; activates with the keyboard', async () => {
    const { calls } = openLocation({
      '/locations/3/violations/no_payment': (body: { label: string; fine_cents: number }) => violation('no_payment', body.label, body.fine_cents, { version: 2 }),
      '/locations/3/violations/fire_lane': () => violation('fire_lane', 'Fire lane', 15000, { version: 4 }),
    });
    await userEvent.click(within(await section()).getByRole('button', { name: 'Edit No payment' }));
    const form = within(await section()).getByRole('form', { name: 'Edit No payment' });
    expect(within(form).getByRole('textbox', { name: 'Usual fine ($)' })).toHaveValue('50.00');
    await userEvent.clear(within(form).getByRole('textbox', { name: 'Violation' }));
    await userEvent.type(within(form).getByRole('textbox', { name: 'Violation' }), 'Unpaid');
    await userEvent.clear(within(form).getByRole('textbox', { name: 'Usual fine ($)' }));
    await userEvent.type(within(form).getByRole('textbox', { name: 'Usual fine ($)' }), '55{Enter}');
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST')[0]).toEqual({
        method: 'POST',
        path: '/locations/3/violations/no_payment',
        payload: { label: 'Unpaid', fine_cents: 5500, active: true, version: 1 },
      }),
    );
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Violations' })).getByRole('form', { name: 'Add a violation' })).toBeInTheDocument());
    within(await section()).getByRole('button', { name: 'Activate Fire lane' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST')[1]?.payload).toEqual({ label: 'Fire lane', fine_cents: 15000, active: true, version: 3 }),
    );
  });

  it('on a conflict says so and shows the list as it is now', async () => {
    const { setList } = openLocation({
      '/locations/3/violations/no_payment': () => {
        setList([violation('no_payment', 'Unpaid parking', 5000, { version: 2 })]);
        throw new ApiError('Changed meanwhile.', { status: 409, data: { currentVersion: 2, changedAt: '2026-11-20T18:04:00Z', changedBy: null } });
      },
    });
    await userEvent.click(within(await section()).getByRole('button', { name: 'Deactivate No payment' }));
    expect(await screen.findByText(/Someone changed this violation meanwhile/)).toBeInTheDocument();
    expect(await within(await section()).findByText('Unpaid parking')).toBeInTheDocument();
  });

  it('is read-only without location edit there', async () => {
    openLocation({}, permissionsFor({ lo: { v: [3], e: [1] } }));
    const list = await section();
    expect(within(list).getByText('No payment')).toBeInTheDocument();
    expect(within(list).queryByRole('button')).toBeNull();
    expect(within(list).queryByRole('form')).toBeNull();
  });
});
