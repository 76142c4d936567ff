import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError, type ApiClient } from '../../src/api/client';
import { DEMO_LOCATIONS } from '../../server/db/seed/demo-locations';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';

function apiAnswering(answer: () => Promise<unknown>): ApiClient {
  return { get: answer, post: answer } as unknown as ApiClient;
}

describe('the locations page', () => {
  it('lists the locations the server returns', async () => {
    renderConsole('/locations', {
      permissions: personaPermissions('admin'),
      api: apiAnswering(async () => DEMO_LOCATIONS.slice(0, 2)),
    });
    expect(await screen.findByRole('link', { name: 'Union Station Garage' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Navy Pier East Lot' })).toBeInTheDocument();
    expect(screen.getAllByRole('cell', { name: 'America/Chicago' })).toHaveLength(2);
    expect(screen.queryByText('Pike Place Market Garage')).not.toBeInTheDocument();
  });

  it('says so when there are no locations', async () => {
    renderConsole('/locations', { permissions: personaPermissions('admin'), api: apiAnswering(async () => []) });
    expect(await screen.findByText('No locations are assigned to you yet.')).toBeInTheDocument();
  });

  it("shows the server's message and a retry when the call fails", async () => {
    renderConsole('/locations', {
      permissions: personaPermissions('admin'),
      api: apiAnswering(async () => {
        throw new ApiError('Database is busy, try again');
      }),
    });
    expect(await screen.findByText('Database is busy, try again')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
