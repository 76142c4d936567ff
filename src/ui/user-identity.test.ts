import { describe, expect, it } from 'vitest';
import { displayNameFromEmail, initialsFromName } from './user-identity';

describe('display name and initials from the e-mail', () => {
  it.each([
    ['olivia.officer@example.com', 'Olivia Officer', 'OO'],
    ['jane.q.public@example.com', 'Jane Q Public', 'JP'],
    ['sam+ops@example.com', 'Sam', 'S'],
    ['first.last+night-shift@example.com', 'First Last', 'FL'],
    ['officer42@example.com', 'Officer42', 'O'],
    ['12345@example.com', '12345', '1'],
    ['mary_ann-smith@example.com', 'Mary Ann Smith', 'MS'],
    ['a.b@example.com', 'A B', 'AB'],
  ])('%s → %s (%s)', (email, name, initials) => {
    expect(displayNameFromEmail(email)).toBe(name);
    expect(initialsFromName(displayNameFromEmail(email))).toBe(initials);
  });

  it('falls back to the whole address when the local part has no letters or digits', () => {
    expect(displayNameFromEmail('+tag@example.com')).toBe('+tag@example.com');
  });
});
