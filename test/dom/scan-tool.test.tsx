import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PlateSearch } from '../../src/routes/_authenticated/(enforcement)/-components/plate-search';
import { plateTool } from '../../src/routes/_authenticated/(enforcement)/-components/screen-extras';
import { ReadMarks } from '../../src/routes/_authenticated/(enforcement)/-components/scan/read-marks';

vi.setConfig({ testTimeout: 20_000 });

const LOCATIONS = [{ location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' }];

function Screen() {
  const [searched, setSearched] = useState<string[]>([]);
  return (
    <>
      <PlateSearch
        search={async (request) => {
          setSearched((all) => [...all, request.text]);
          return { categories: [], total: 0 } as never;
        }}
        locations={LOCATIONS}
        ready={false}
        lastSyncedAt={null}
        plateTool={plateTool}
      />
      <output aria-label="searched">{searched.join(',')}</output>
    </>
  );
}

describe('Scan beside the plate field', () => {
  it('explains a browser without a camera, and the field still types', async () => {
    // jsdom, like a page served over plain http, has no navigator.mediaDevices.
    const user = userEvent.setup();
    render(<Screen />);
    await user.click(screen.getByRole('button', { name: 'Scan a plate with the camera' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The camera can only be used over a secure (https) connection');
    expect(screen.queryByRole('dialog')).toBeNull();
    const field = screen.getByLabelText('License plate');
    await user.type(field, 'abc1');
    expect(field).toHaveValue('ABC1');
  });

  it('marks the characters the reader was unsure of, and says nothing to check when it was sure', () => {
    const { rerender } = render(<ReadMarks read={{ plate: '7ABC123', unsure: [1, 6] }} />);
    expect(screen.getByText(/Check the marked characters/)).toBeInTheDocument();
    expect([...document.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['A', '3']);
    rerender(<ReadMarks read={{ plate: '7ABC123', unsure: [] }} />);
    expect(screen.getByText('Read by the camera.')).toBeInTheDocument();
    expect(document.querySelectorAll('mark')).toHaveLength(0);
  });
});
