import { describe, expect, it } from 'vitest';
import type { PermissionRecordInput } from '../../permissions/features';
import { permissionsFor, personaPermissions } from '../../../test/fixtures/personas';
import { homePath, NAVIGATION } from './navigation';

const home = (record: PermissionRecordInput) => homePath({ permissions: permissionsFor(record), isProductionHost: false });

describe('homePath: where a user lands after sign-in when no page asked', () => {
  it.each([
    ['promo codes only', { pc: { v: [1] } }, '/promo-codes'],
    ['enforcement only', { e: { v: [1, 2] } }, '/list'],
    ['locations only', { lo: { v: [1], e: [1] } }, '/locations'],
    ['refund portal only: the transaction search', { rp: { v: [1] } }, '/refund-portal/transactions'],
    ['users only', { u: { v: [1] } }, '/user-config'],
    // Configure Rates and Rate Changes are two entries of one section (rate settings).
    ['rate settings only: its first screen', { rs: { v: [1], e: [1] } }, '/rate-selection'],
    ['the settled dashboard only', { sd: { v: [2] } }, '/settled-dashboard'],
    ['two sections: `/` decides', { pc: { v: [1] }, lo: { v: [1] } }, '/'],
    ['rate settings and promo codes', { rs: { v: [1] }, pc: { v: [1] } }, '/'],
    ['nothing at all: the home page says so', {}, '/'],
  ] satisfies [string, PermissionRecordInput, string][])('%s → %s', (_name, record, expected) => {
    expect(home(record)).toBe(expected);
  });

  it('sends the demo personas where spec §2 and their single section say', () => {
    const land = (persona: Parameters<typeof personaPermissions>[0]) =>
      homePath({ permissions: personaPermissions(persona), isProductionHost: false });
    expect(land('officer')).toBe('/list');
    expect(land('promo')).toBe('/promo-codes');
    expect(land('finance')).toBe('/');
    expect(land('admin')).toBe('/');
    expect(land('superuser')).toBe('/');
    expect(land('noaccess')).toBe('/');
  });
});

describe('the sidebar entries', () => {
  it('"Transactions" opens the transaction search', () => {
    const transactions = NAVIGATION.find((entry) => entry.label === 'Transactions');
    expect(transactions?.to).toBe('/refund-portal/transactions');
  });
});
