import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/contract/lists';
import { HistoryPanel } from '../../src/ui/history-panel';
import { actionText, HISTORY_ACTIONS } from '../../src/ui/history-values';

const ISO_TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function entry(action: string, changes: AuditEntry['changes'], at = '2026-11-29T04:34:27.000Z'): AuditEntry {
  return { audit_id: Math.random(), at, actor: { email: 'ana@example.com', name: 'Ana' }, action, changes };
}

const names = new Map([
  [1, 'Chicago Loop'],
  [2, 'Union Station Garage'],
]);

function renderPanel(entries: AuditEntry[], timeZone = 'America/Chicago') {
  render(
    <HistoryPanel
      entries={entries}
      timeZone={timeZone}
      fieldLabels={{ amount_requested_cents: 'Amount asked' }}
      fieldTypes={{
        amount_requested_cents: 'money',
        valid_to: 'instant',
        location_ids: 'locations',
        active: 'boolean',
        status: { enum: { open: 'Open', approved: 'Approved' } },
        enforcement_enabled: { yes: 'On', no: 'Off' },
        grace_period_minutes: 'minutes',
      }}
      locationName={(id) => names.get(id)}
    />,
  );
  return screen.getByRole('region', { name: 'History' });
}

const changeText = (panel: HTMLElement, label: string) =>
  within(panel)
    .getAllByRole('listitem')
    .find((item) => item.querySelector('.history-field')?.textContent === label)?.textContent;

describe('HistoryPanel reads values by their field type', () => {
  it('shows money in dollars, instants on the panel clock, location names, booleans and labelled codes in words', () => {
    const panel = renderPanel([
      entry('update', [
        { field: 'amount_requested_cents', before: 1200, after: 123456 },
        { field: 'valid_to', before: '2026-12-31T00:00:00.000Z', after: null },
        { field: 'location_ids', before: [1], after: [1, 2] },
        { field: 'active', before: true, after: false },
        { field: 'status', before: 'open', after: 'approved' },
        { field: 'enforcement_enabled', before: false, after: true },
        { field: 'grace_period_minutes', before: 5, after: 15 },
      ]),
    ]);
    expect(changeText(panel, 'Amount asked')).toContain('$12.00');
    expect(changeText(panel, 'Amount asked')).toContain('$1,234.56');
    // Midnight UTC is still the 30th in Chicago.
    expect(changeText(panel, 'Valid to')).toContain('Dec 30, 2026, 6:00 PM CST');
    expect(changeText(panel, 'Locations')).toMatch(/Chicago Loop.*→.*Chicago Loop, Union Station Garage/s);
    expect(changeText(panel, 'Active')).toMatch(/Yes.*No/s);
    expect(changeText(panel, 'Status')).toMatch(/Open.*Approved/s);
    expect(changeText(panel, 'Enforcement enabled')).toMatch(/Off.*On/s);
    expect(changeText(panel, 'Grace period minutes')).toMatch(/5 min.*15 min/s);
    expect(panel.textContent).not.toMatch(ISO_TIMESTAMP);
    expect(panel.textContent).not.toContain('1200');
  });

  it('reads the same instant on another clock when the record is elsewhere', () => {
    const panel = renderPanel([entry('update', [{ field: 'valid_to', before: null, after: '2026-12-31T00:00:00.000Z' }])], 'America/New_York');
    expect(changeText(panel, 'Valid to')).toContain('Dec 30, 2026, 7:00 PM EST');
    expect(within(panel).getByText('Nov 28, 2026, 11:34 PM EST')).toHaveAttribute('dateTime', '2026-11-29T04:34:27.000Z');
  });

  it('names unlabelled fields in words and reads undeclared ISO instants and unknown locations sensibly', () => {
    const panel = renderPanel([
      entry('create', [
        { field: 'transaction_id', before: null, after: 100001 },
        { field: 'opened_at', before: null, after: '2026-11-29T04:34:27.000Z' },
        { field: 'location_ids', before: null, after: [9] },
        { field: 'refund_cents', before: null, after: 250 },
        { field: 'location_id', before: null, after: 2 },
      ]),
    ]);
    // Names imply types when the section declares none: cents are money, a location id is its name.
    expect(changeText(panel, 'Refund')).toContain('$2.50');
    expect(changeText(panel, 'Location')).toContain('Union Station Garage');
    expect(changeText(panel, 'Transaction')).toContain('100001');
    expect(changeText(panel, 'Opened')).toContain('Nov 28, 2026, 10:34 PM CST');
    expect(changeText(panel, 'Locations')).toContain('Location 9');
    expect(panel.textContent).not.toMatch(ISO_TIMESTAMP);
    expect(panel.textContent).not.toContain('_');
  });

  it('says every action in words: "Approved by Ana", not "approve by"', () => {
    const panel = renderPanel([entry('approve', []), entry('relink-identity', []), entry('schedule', [])]);
    const heads = [...panel.querySelectorAll('.history-head')].map((head) => head.textContent);
    expect(heads[0]).toMatch(/^Approved by Ana/);
    expect(heads[1]).toMatch(/^Sign-in account changed by Ana/);
    expect(heads[2]).toMatch(/^Rate change scheduled by Ana/);
  });
});

describe('audit actions', () => {
  it('has words for every action string the server writes', async () => {
    // The actions written by server/db/*.ts and the SQL of the migrations, found in the source itself, so a new
    // action without words fails here.
    const { readFileSync, readdirSync } = await import('node:fs');
    const written = new Set<string>();
    const dir = 'server/db';
    const sources = [
      ...readdirSync(dir).filter((file) => file.endsWith('.ts') && !file.includes('.test.')).map((file) => `${dir}/${file}`),
      ...readdirSync(`${dir}/migrations`).map((file) => `${dir}/migrations/${file}`),
    ];
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/action: '([a-z-]+)'/g)) written.add(match[1]!);
      for (const match of text.matchAll(/VALUES \(actor_id, actor_email, '[a-z_]+', [^,]+, '([a-z-]+)'/g)) written.add(match[1]!);
      for (const match of text.matchAll(/AUDIT_(?!ENTITY)[A-Z_]+ = '([a-z-]+)'/g)) written.add(match[1]!);
    }
    expect(written.size).toBeGreaterThan(10);
    for (const action of written) expect(HISTORY_ACTIONS, action).toHaveProperty([action]);
    expect(actionText('something-new')).toBe('Something new');
  });
});
