import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import { ConsoleProviders } from '../../src/app/console-providers';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';

async function expectErrorScreen() {
  expect(await screen.findByRole('heading', { name: 'Hmm. It looks like something went wrong.' })).toBeInTheDocument();
  expect(screen.getByText('Please reload the page and try again.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
}

describe('the error boundary', () => {
  it('shows the spec text when a route throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = {
      get: () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'name')")),
      post: () => Promise.reject(new TypeError('unreachable')),
    } as unknown as ApiClient;
    renderConsole('/locations', { permissions: personaPermissions('admin'), api: broken });
    await expectErrorScreen();
  });

  it('shows the spec text when rendering throws outside any route', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function Broken(): never {
      throw new Error('render failed');
    }
    render(
      <ConsoleProviders>
        <Broken />
      </ConsoleProviders>,
    );
    await expectErrorScreen();
  });
});
