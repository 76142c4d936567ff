import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { RateLocation } from '../../src/contract/rates';
import { permissionsFor, personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { sectionApi } from './section-api';

const locations = [{ location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' }];
const ratesAt = (changes: Partial<RateLocation> = {}): RateLocation => ({
  location_id: 1,
  name: 'Union Station Garage',
  time_zone: 'America/Chicago',
  config: { currency: 'USD', incrementMinutes: 15, rounding: 'up', graceMinutes: 10, taxBasisPoints: 2250, dailyMaximum: 'rolling_24h' },
  config_version: 1,
  schedule_version: 1,
  current: null,
  next: null,
  ...changes,
});

function open(answers: { get?: Record<string, unknown>; post?: Record<string, unknown> }, permissions = personaPermissions('admin')) {
  const { api, calls } = sectionApi({ get: { '/rates/locations': locations, '/rates/locations/1': ratesAt(), ...answers.get }, post: answers.post ?? {} });
  return { ...renderConsole('/rate-config', { permissions, api }), calls };
}

describe('Rate Configuration', () => {
  it('saves an edit with the version it was made on', async () => {
    const { calls } = open({ post: { '/rates/locations/1/config': () => ratesAt({ config: { ...ratesAt().config, incrementMinutes: 30 }, config_version: 2 }) } });
    await userEvent.selectOptions(await screen.findByLabelText('Increment'), '30');
    await userEvent.click(screen.getByRole('button', { name: 'Save configuration' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.payload).toEqual({ ...ratesAt().config, incrementMinutes: 30, version: 1 });
  });

  it('takes the tax as a percentage: 8.75 is saved as 875 hundredths of a percent', async () => {
    const { calls } = open({ post: { '/rates/locations/1/config': (payload: unknown) => ratesAt({ config: { ...ratesAt().config, taxBasisPoints: (payload as { taxBasisPoints: number }).taxBasisPoints }, config_version: 2 }) } });
    const tax = await screen.findByLabelText('Tax');
    expect(tax).toHaveValue('22.5');
    await userEvent.clear(tax);
    await userEvent.type(tax, '8.75');
    await userEvent.click(screen.getByRole('button', { name: 'Save configuration' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.payload).toMatchObject({ taxBasisPoints: 875, version: 1 });
    expect(tax).toHaveValue('8.75');
  });

  it('refuses a negative tax at its field in words and sends nothing', async () => {
    const { calls } = open({});
    const tax = await screen.findByLabelText('Tax');
    await userEvent.clear(tax);
    await userEvent.type(tax, '-1');
    await userEvent.click(screen.getByRole('button', { name: 'Save configuration' }));
    expect(await screen.findByText('The tax cannot be negative.')).toBeInTheDocument();
    expect(tax).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('says what is wrong at the field, with the schema’s words, and sends nothing', async () => {
    const { calls } = open({});
    const grace = await screen.findByLabelText('Grace period (minutes)');
    await userEvent.clear(grace);
    await userEvent.type(grace, '2000');
    await userEvent.click(screen.getByRole('button', { name: 'Save configuration' }));
    expect(await screen.findByText('The grace period must be at most 1,440 minutes.')).toBeInTheDocument();
    expect(grace).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('tells who changed it meanwhile, keeps the typed values, and reloads theirs only when asked', async () => {
    let serverVersion = 1;
    open({
      get: { '/rates/locations/1': () => (serverVersion === 1 ? ratesAt() : ratesAt({ config: { ...ratesAt().config, graceMinutes: 5 }, config_version: 2 })) },
      post: {
        '/rates/locations/1/config': () => {
          serverVersion = 2;
          throw new ApiError('changed', {
            status: 409,
            data: { currentVersion: 2, changedAt: '2026-03-02T15:00:00.000Z', changedBy: { email: 'jane@example.com', name: 'Jane Doe' } },
          });
        },
      },
    });
    const tax = await screen.findByLabelText('Tax');
    await userEvent.clear(tax);
    await userEvent.type(tax, '10');
    await userEvent.click(screen.getByRole('button', { name: 'Save configuration' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Changed by Jane Doe at Mar 2, 2026, 9:00 AM CST after you opened it; nothing was saved.');
    expect(tax).toHaveValue('10');
    await userEvent.click(screen.getByRole('button', { name: 'Reload their version' }));
    await waitFor(() => expect(screen.getByLabelText('Grace period (minutes)')).toHaveValue('5'));
    expect(screen.getByLabelText('Tax')).toHaveValue('22.5');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the configuration read only to a user who may only view rates there', async () => {
    open({}, permissionsFor({ rs: { v: [1] } }));
    expect(await screen.findByText('You may view this configuration; changing it needs rate settings edit permission here.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save configuration' })).not.toBeInTheDocument();
    expect(screen.getByText('15 min, every started increment')).toBeInTheDocument();
  });
});
