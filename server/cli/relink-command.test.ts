import { describe, expect, it } from 'vitest';
import { parseRelinkArgs } from './relink-command';

describe('staff:relink arguments', () => {
  it('reads the staff e-mail, one target and who does it', () => {
    expect(parseRelinkArgs(['o@example.com', '--account', 'o@example.com', '--by', 'a@example.com'])).toEqual({
      email: 'o@example.com',
      target: { account: 'o@example.com' },
      by: 'a@example.com',
    });
    expect(parseRelinkArgs(['o@example.com', '--uid', ' abc ', '--by', 'a@example.com']).target).toEqual({
      uid: 'abc',
    });
    expect(parseRelinkArgs(['o@example.com', '--unlink', '--by', 'a@example.com']).target).toEqual({ unlink: true });
  });

  it.each([
    [['--unlink', '--by', 'a@example.com'], /exactly one staff e-mail/],
    [['o@example.com', '--by', 'a@example.com'], /exactly one of --account, --uid and --unlink/],
    [['o@example.com', '--unlink', '--uid', 'x', '--by', 'a@example.com'], /exactly one of/],
    [['o@example.com', '--unlink'], /--by/],
    [['o@example.com', '--uid', '', '--by', 'a@example.com'], /--uid is empty/],
    [['o@example.com', '--unlink', '--by', 'a@example.com', '--force'], /Unknown option/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseRelinkArgs(argv)).toThrow(message);
  });
});
