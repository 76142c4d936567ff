import { describe, expect, it } from 'vitest';
import { parseEnforcementSeedArgs, SeedArgsError } from './enforcement-seed-args';

describe('parseEnforcementSeedArgs', () => {
  it('defaults to 500 records split evenly, seed 1, tie size 25, adding to existing data', () => {
    expect(parseEnforcementSeedArgs([])).toEqual({
      help: false,
      counts: { valid: 100, expired: 100, spothero: 100, parkwhiz: 100, monthly_parkers: 100 },
      seed: '1',
      tieSize: 25,
      locationIds: undefined,
      now: undefined,
      reset: false,
      history: undefined,
    });
  });

  it('reads the payment history options', () => {
    expect(parseEnforcementSeedArgs(['--history-days', '30']).history).toEqual({ days: 30 });
    expect(parseEnforcementSeedArgs(['--history-days', '7', '--history-per-space', '1.2']).history).toEqual({
      days: 7,
      perSpace: 1.2,
    });
    expect(parseEnforcementSeedArgs(['--history-days=7', '--history-per-day', '250']).history).toEqual({
      days: 7,
      paymentsPerDay: 250,
    });
    expect(parseEnforcementSeedArgs(['--history-days', '365', '--history-total', '1_000_000']).history).toEqual({
      days: 365,
      total: 1_000_000,
    });
  });

  it('splits --records and lets per-type options override their share', () => {
    expect(parseEnforcementSeedArgs(['--records', '1000']).counts.parkwhiz).toBe(200);
    expect(parseEnforcementSeedArgs(['--records', '1000', '--valid', '5', '--monthly=7']).counts).toEqual({
      valid: 5,
      expired: 200,
      spothero: 200,
      parkwhiz: 200,
      monthly_parkers: 7,
    });
    expect(parseEnforcementSeedArgs(['--records', '0', '--spothero', '500_000']).counts).toEqual({
      valid: 0,
      expired: 0,
      spothero: 500_000,
      parkwhiz: 0,
      monthly_parkers: 0,
    });
  });

  it('reads the other options', () => {
    const args = parseEnforcementSeedArgs([
      '--seed', 'demo', '--locations', '2, 1,2', '--tie-size', '3', '--now', '2026-03-02T15:00:00Z', '--reset',
    ]);
    expect(args).toMatchObject({ seed: 'demo', locationIds: [2, 1], tieSize: 3, reset: true });
    expect(args.now?.toISOString()).toBe('2026-03-02T15:00:00.000Z');
    expect(parseEnforcementSeedArgs(['-h']).help).toBe(true);
  });

  it.each([
    [['--records', 'many'], /--records/],
    [['--records', '1.5'], /--records/],
    [['--valid', '-5'], /valid/],
    [['--tie-size', '0'], /--tie-size/],
    [['--locations', '1,a'], /--locations/],
    [['--locations', '0'], /--locations/],
    [['--now', 'yesterday'], /--now/],
    [['--seed', ' '], /--seed/],
    [['--history-days', '0'], /--history-days/],
    [['--history-days', '2.5'], /--history-days/],
    [['--history-total', '100'], /--history-total needs --history-days/],
    [['--history-days', '3', '--history-total', '10', '--history-per-day', '5'], /--history-per-day and --history-total/],
    [['--history-days', '3', '--history-per-space', 'lots'], /--history-per-space/],
    [['--record', '5'], /record/],
    [['500'], /500/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseEnforcementSeedArgs(argv)).toThrow(SeedArgsError);
    expect(() => parseEnforcementSeedArgs(argv)).toThrow(message);
  });
});
