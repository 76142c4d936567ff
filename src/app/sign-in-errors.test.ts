import { describe, expect, it } from 'vitest';
import { signInErrorMessage, WRONG_CREDENTIALS } from './sign-in-errors';

describe('sign-in error messages', () => {
  // The emulator and unprotected projects tell the two apart; the login form must not pass that on.
  it('say the same for an unknown e-mail and a wrong password, whatever code the provider uses', () => {
    const codes = [
      'auth/user-not-found',
      'auth/wrong-password',
      'auth/invalid-credential',
      'auth/invalid-login-credentials',
    ];
    expect(new Set(codes.map((code) => signInErrorMessage({ code })))).toEqual(new Set([WRONG_CREDENTIALS]));
  });

  it('still name the problems that do not reveal an account', () => {
    expect(signInErrorMessage({ code: 'auth/network-request-failed' })).toMatch(/Network error/);
    expect(signInErrorMessage({ code: 'auth/something-new' })).toBe('Sign-in failed (auth/something-new). Try again.');
  });
});
