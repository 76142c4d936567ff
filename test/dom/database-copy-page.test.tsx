import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { CopyOptions, DatabaseCopy } from '../../src/contract/database-copy';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { sectionApi } from './section-api';

const choices: CopyOptions = {
  databases: [
    { name: 'production', engine: 'postgres', production: true },
    { name: 'staging', engine: 'postgres', production: false },
  ],
  tables: [
    { name: 'locations', label: 'Locations', masked_columns: [], includes: [], requires: [] },
    { name: 'transactions', label: 'Payments', masked_columns: ['phone_number'], includes: ['refunds'], requires: ['locations'] },
    { name: 'refunds', label: 'Refunds', masked_columns: [], includes: [], requires: ['transactions'] },
  ],
};
const COUNTS = {
  production: { locations: 6, transactions: 1200, refunds: 30 },
  staging: { locations: 6, transactions: 0, refunds: 0 },
} as Record<string, Record<string, number>>;

const running: DatabaseCopy = {
  copy_id: 5,
  source: 'production',
  target: 'staging',
  masked: true,
  status: 'running',
  tables: [
    { table: 'transactions', total: 1200, rows: 600, status: 'copying' },
    { table: 'refunds', total: 30, rows: 0, status: 'waiting' },
  ],
  rows_copied: 0,
  error: null,
  started_by_email: 'superuser@example.com',
  started_at: '2026-11-24T02:00:00.000Z',
  finished_at: null,
};

function openCopy(
  answers: { start?: (payload: unknown) => unknown; copies?: DatabaseCopy[]; copy?: () => DatabaseCopy } = {},
  url = '/database-copy',
) {
  const { api, calls } = sectionApi({
    get: {
      '/database-copy/databases': choices,
      '/database-copies': answers.copies ?? [],
      '/database-copy/counts': (payload: unknown) => {
        const { database } = payload as { database: string };
        return { database, counts: COUNTS[database] };
      },
      '/database-copies/5': () => answers.copy?.() ?? running,
    },
    post: { '/database-copies': answers.start ?? (() => running) },
  });
  const rendered = renderConsole(url, { permissions: personaPermissions('superuser'), api });
  return { calls, ...rendered };
}

describe('Database Copy', () => {
  it('shows rows at both ends, never offers a production target, and brings dependants along', async () => {
    openCopy();
    const tables = await screen.findByRole('region', { name: 'Tables to copy' });
    await waitFor(() => expect(within(tables).getByTestId('source-rows-transactions')).toHaveTextContent('1,200'));
    expect(within(tables).getByTestId('target-rows-transactions')).toHaveTextContent('0');
    const target = screen.getByRole('combobox', { name: 'Target' });
    expect(within(target).getByRole('option', { name: /production/ })).toBeDisabled();
    expect(target).toHaveValue('staging');

    await userEvent.click(within(tables).getByRole('checkbox', { name: 'Payments' }));
    const refunds = within(tables).getByRole('checkbox', { name: 'Refunds' });
    expect(refunds).toBeChecked();
    expect(refunds).toBeDisabled();
  });

  it('says beside the copy button why it waits, until a table is picked', async () => {
    openCopy();
    const tables = await screen.findByRole('region', { name: 'Tables to copy' });
    const copy = screen.getByRole('button', { name: /^Copy to staging/ });
    expect(copy).toBeDisabled();
    expect(copy).toHaveAccessibleDescription('Pick at least one table to copy.');
    expect(screen.getByText('Pick at least one table to copy.')).toBeVisible();

    await userEvent.click(within(tables).getByRole('checkbox', { name: 'Locations' }));
    expect(copy).toBeEnabled();
    expect(copy).not.toHaveAttribute('aria-describedby');
    expect(screen.queryByText('Pick at least one table to copy.')).not.toBeInTheDocument();
  });

  it('starts only once the target is typed, sends the choice, and shows progress in the URL', async () => {
    let attempts = 0;
    const { calls, router } = openCopy({
      start: (payload) => {
        attempts += 1;
        if ((payload as { confirm_target: string }).confirm_target !== 'staging') {
          throw new ApiError('Invalid request body', {
            status: 400,
            code: 'BadRequest',
            data: { fieldErrors: { confirm_target: "Type the target's name, staging, to confirm." } },
          });
        }
        return running;
      },
    });
    const tables = await screen.findByRole('region', { name: 'Tables to copy' });
    await userEvent.click(within(tables).getByRole('checkbox', { name: 'Payments' }));
    await userEvent.click(screen.getByRole('button', { name: 'Copy to staging…' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Payments, Refunds on staging will be replaced by those of production, with personal data masked');

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Type staging to confirm' }), 'stagin');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace and copy' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent("Type the target's name, staging, to confirm.");

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Type staging to confirm' }), 'g');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace and copy' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ copy: 5 }));
    expect(attempts).toBe(2);
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.payload).toEqual({
      source: 'production',
      target: 'staging',
      tables: ['transactions'],
      mask: true,
      confirm_target: 'staging',
    });
    const progress = await screen.findByRole('region', { name: 'Progress per table' });
    expect(within(progress).getByTestId('progress-transactions')).toHaveTextContent('600 of 1,200');
    expect(within(progress).getByRole('progressbar', { name: 'Payments progress' })).toHaveAttribute('value', '600');
  });

  it('shows a finished copy with rows at both ends, and History says who, what and how it ended', async () => {
    const done: DatabaseCopy = {
      ...running,
      status: 'done',
      rows_copied: 1230,
      finished_at: '2026-11-24T02:01:00.000Z',
      tables: [
        { table: 'transactions', total: 1200, rows: 1200, status: 'done' },
        { table: 'refunds', total: 30, rows: 30, status: 'done' },
      ],
    };
    COUNTS.staging = { locations: 6, transactions: 1200, refunds: 30 };
    // A reload of the copy's address shows it again.
    openCopy({ copies: [done], copy: () => done }, '/database-copy?copy=5');
    expect(await screen.findByTestId('copy-status')).toHaveTextContent('Done: 1,230 rows copied, personal data masked.');
    await waitFor(() => expect(screen.getByTestId('end-counts-transactions')).toHaveTextContent('1,200 / 1,200'));
    const history = screen.getByRole('region', { name: 'Copies' });
    const row = within(history).getByRole('row', { name: /Copy 5/ });
    expect(row).toHaveTextContent('superuser@example.com');
    expect(row).toHaveTextContent('production → staging (masked)');
    expect(row).toHaveTextContent('Done');
  });
});
