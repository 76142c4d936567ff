import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SettledSearch } from '../../src/contract/dashboard-queries';
import type { SettledDashboard as SettledData } from '../../src/contract/dashboards';
import { SettledDashboard } from '../../src/routes/_authenticated/(dashboards)/-components/settled-dashboard';

// Canvas is not jsdom's: the chart is the table's twin, and the table is what these tests read.
vi.mock('../../src/routes/_authenticated/(dashboards)/-components/chart-canvas', () => ({ drawChart: () => ({ update() {}, dispose() {} }) }));

const ZERO = { payments: 0, gross_cents: 0, fee_cents: 0, refunded_cents: 0, net_cents: 0 };

function data(from: string, to: string): SettledData {
  const days = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000) {
    days.push({ day: new Date(at).toISOString().slice(0, 10), ...ZERO });
  }
  return { from, to, choices: [{ location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' }], days, locations: [], totals: ZERO };
}

function renderDashboard(search: SettledSearch, shown: SettledData) {
  const onSearch = vi.fn();
  render(
    <SettledDashboard search={search} data={shown} loadError={null} busy={false} onSearch={onSearch} onRetry={() => {}} onExport={async () => {}} />,
  );
  return { onSearch };
}

describe('the settled dashboard’s range', () => {
  it('says the days the range resolved to, in words, beside the picker', () => {
    renderDashboard({ range: 'thisMonth' }, data('2026-11-01', '2026-11-27'));
    const form = screen.getByRole('search', { name: 'Settled range and location' });
    expect(within(form).getByTestId('settled-range-days')).toHaveTextContent('Nov 1 – Nov 27, 2026');
    expect(within(form).getByRole('combobox', { name: 'Range' })).toHaveValue('thisMonth');
    expect(document.body.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('refuses a custom range longer than 366 days at the field, before asking the server', async () => {
    const { onSearch } = renderDashboard({ range: 'custom', from: '2026-11-01', to: '2026-11-27' }, data('2026-11-01', '2026-11-27'));
    const from = screen.getByLabelText('From');
    fireEvent.change(from, { target: { value: '2025-11-26' } }); // 367 days to Nov 27, 2026
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The range may span at most 366 days.');
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(from).toHaveAccessibleDescription('The range may span at most 366 days.');
    expect(onSearch).not.toHaveBeenCalled();

    fireEvent.change(from, { target: { value: '2025-11-27' } }); // 366 days: the longest
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onSearch).toHaveBeenCalledWith({ range: 'custom', from: '2025-11-27', to: '2026-11-27', locationId: undefined });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
