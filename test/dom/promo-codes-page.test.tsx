import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../src/contract/lists';
import type { PromoCode } from '../../src/contract/promo-codes';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { pageOf, sectionApi } from './section-api';

// Forms re-render per keystroke in jsdom, and the machine is shared: give each test room.
vi.setConfig({ testTimeout: 20_000 });

const UNION_STATION = { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' };
const PIKE_PLACE = { location_id: 3, name: 'Pike Place Market Garage', time_zone: 'America/Los_Angeles' };

/** The message tied to a control by aria-describedby. */
function describedBy(control: HTMLElement): string {
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

/** Types by pasting: one change per field keeps these tests quick on a busy machine. */
async function enter(control: HTMLElement, text: string) {
  await userEvent.clear(control);
  await userEvent.click(control);
  await userEvent.paste(text);
}

/** A datetime-local input takes its value whole, as a browser's picker sets it. */
const pick = (label: string, wallClock: string) => fireEvent.change(screen.getByLabelText(label), { target: { value: wallClock } });

const posts = (calls: { method: string; path: string; payload: unknown }[]) => calls.filter((call) => call.method === 'POST');

describe('adding a promo code', () => {
  const addApi = () =>
    sectionApi({
      get: { '/promo-codes/locations': [UNION_STATION, PIKE_PLACE], '/promo-codes': pageOf([]) },
      post: { '/promo-codes': (input: unknown) => ({ promo_code_id: 9, ...(input as object), uses: 0, remaining: null, version: 1, updated_at: '2026-11-01T00:00:00Z' }) },
    });

  it('takes an amount off in dollars and times on the chosen location’s clock, and sends cents and instants', async () => {
    const { api, calls } = addApi();
    renderConsole('/promo-codes/add', { permissions: personaPermissions('admin'), api });
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Discount type' }), 'Amount off');
    await enter(screen.getByRole('textbox', { name: 'Amount off' }), '5');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Union Station Garage' }));
    pick('Valid from', '2026-12-01T00:00');
    pick('Valid to', '2026-12-31T23:59');
    // The clock is named beside the picker: Chicago's in December.
    expect(screen.getAllByText('CST').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Add promo code' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]?.payload).toMatchObject({
      discount_type: 'amount',
      discount_value: 500,
      location_ids: [1],
      valid_from: '2026-12-01T06:00:00.000Z',
      valid_to: '2027-01-01T05:59:00.000Z',
    });
  });

  it('refuses a negative amount at its field and sends nothing', async () => {
    const { api, calls } = addApi();
    renderConsole('/promo-codes/add', { permissions: personaPermissions('admin'), api });
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Discount type' }), 'Amount off');
    const amount = screen.getByRole('textbox', { name: 'Amount off' });
    await enter(amount, '-1');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Pike Place Market Garage' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add promo code' }));
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    expect(describedBy(amount)).toContain('The amount off cannot be negative.');
    expect(amount).toHaveValue('-1');
    expect(posts(calls)).toEqual([]);
  });

  it('starts a new code today at midnight for 30 days on its location’s clock', async () => {
    const { api } = sectionApi({ get: { '/promo-codes/locations': [PIKE_PLACE] } });
    renderConsole('/promo-codes/add', { permissions: personaPermissions('promo'), api });
    const from = (await screen.findByLabelText('Valid from')) as HTMLInputElement;
    // Today as Seattle's calendar has it, worked out here with Intl (not with the screen's own helpers).
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
    const [year, month, day] = today.split('-').map(Number) as [number, number, number];
    const in30Days = new Date(Date.UTC(year, month - 1, day + 30)).toISOString().slice(0, 10);
    expect(from.value).toBe(`${today}T00:00`);
    expect((screen.getByLabelText('Valid to') as HTMLInputElement).value).toBe(`${in30Days}T00:00`);
    expect(screen.getAllByText(/^P[SD]T$/).length).toBe(2);
    expect(screen.queryByText(/UTC/)).not.toBeInTheDocument();
  });
});

describe('editing a promo code', () => {
  const code = (changes: Partial<PromoCode> = {}): PromoCode => ({
    promo_code_id: 5,
    code: 'SAVE5',
    discount_type: 'amount',
    discount_value: 500,
    multi_use: true,
    total_cap: null,
    per_plate_cap: null,
    uses: 0,
    remaining: null,
    valid_from: '2026-12-01T06:00:00.000Z',
    valid_to: '2026-12-31T06:00:00.000Z',
    active: true,
    location_ids: [1],
    version: 1,
    updated_at: '2026-11-01T00:00:00.000Z',
    ...changes,
  });
  const created: AuditEntry = {
    audit_id: 1,
    at: '2026-11-01T18:00:00.000Z',
    actor: { email: 'admin@example.com', name: 'Alex Admin' },
    action: 'create',
    changes: [
      { field: 'discount_type', before: null, after: 'amount' },
      { field: 'discount_value', before: null, after: 500 },
      { field: 'valid_from', before: null, after: '2026-12-01T06:00:00.000Z' },
      { field: 'location_ids', before: null, after: [1] },
    ],
  };

  it('sends the edit in cents, and History shows it at once in dollars, local time and names', async () => {
    let saved: PromoCode | null = null;
    const { api, calls } = sectionApi({
      get: {
        '/promo-codes/locations': [UNION_STATION, PIKE_PLACE],
        '/promo-codes/5': () => saved ?? code(),
        '/promo-codes/5/history': () =>
          saved
            ? [{ audit_id: 2, at: '2026-11-02T18:00:00.000Z', actor: null, action: 'update', changes: [{ field: 'discount_value', before: 500, after: saved.discount_value }] }, created]
            : [created],
      },
      post: {
        '/promo-codes/5': (input: unknown) => {
          saved = code({ ...(input as Partial<PromoCode>), version: 2 });
          return saved;
        },
      },
    });
    renderConsole('/promo-codes/edit/5', { permissions: personaPermissions('admin'), api });
    const amount = await screen.findByRole('textbox', { name: 'Amount off' });
    expect(amount).toHaveValue('5.00');
    expect(screen.getByLabelText('Valid from')).toHaveValue('2026-12-01T00:00');
    const history = screen.getByRole('region', { name: 'History' });
    expect(within(history).getByText('Union Station Garage')).toBeInTheDocument();
    expect(within(history).getByText('Amount off')).toBeInTheDocument();
    expect(within(history).getByText('Dec 1, 2026, 12:00 AM CST')).toBeInTheDocument();

    await enter(amount, '7.5');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    // Only the amount changed: the times go back as the same instants.
    expect(posts(calls)[0]?.payload).toMatchObject({ discount_value: 750, valid_from: '2026-12-01T06:00:00.000Z', valid_to: '2026-12-31T06:00:00.000Z', version: 1 });
    const edited = await within(history).findByText('Edited');
    const entry = edited.closest('li') as HTMLElement;
    expect(within(entry).getByText('$5.00 off')).toBeInTheDocument();
    expect(within(entry).getByText('$7.50 off')).toBeInTheDocument();
    expect(history.textContent).not.toMatch(/UTC|\d{4}-\d{2}-\d{2}T/);
  });
});

describe('the promo code list', () => {
  it('shows amounts in dollars and validity on each code’s clock', async () => {
    const row = {
      promo_code_id: 5,
      code: 'SAVE5',
      discount_type: 'amount',
      discount_value: 1250,
      multi_use: true,
      total_cap: null,
      per_plate_cap: null,
      uses: 3,
      remaining: null,
      valid_from: '2026-12-01T06:00:00.000Z',
      valid_to: '2026-12-31T06:00:00.000Z',
      active: true,
      location_ids: [1],
      version: 1,
      updated_at: '2026-11-01T00:00:00.000Z',
    };
    const { api } = sectionApi({ get: { '/promo-codes': pageOf([row]), '/promo-codes/locations': [UNION_STATION, PIKE_PLACE] } });
    renderConsole('/promo-codes', { permissions: personaPermissions('admin'), api });
    const table = await screen.findByRole('table');
    expect(within(table).getByText('$12.50')).toHaveClass('money');
    expect(within(table).getByText('Dec 1, 2026, 12:00 AM CST')).toBeInTheDocument();
    expect(table.textContent).not.toMatch(/UTC/);
  });
});
