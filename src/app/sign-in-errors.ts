/** One sentence for an unknown e-mail and a wrong password, so the form cannot tell who has an account. */
export const WRONG_CREDENTIALS = 'Wrong e-mail or password. Try again, or reset your password.';

/**
 * Messages for the identity provider's sign-in and reset failures. Firebase reports them as `auth/...` codes; the
 * emulator and projects without e-mail enumeration protection report wrong password and unknown user separately,
 * protected projects report both as invalid-credential. All four read the same (as the password reset does).
 */
const MESSAGES: Record<string, string> = {
  'auth/wrong-password': WRONG_CREDENTIALS,
  'auth/user-not-found': WRONG_CREDENTIALS,
  'auth/invalid-credential': WRONG_CREDENTIALS,
  'auth/invalid-login-credentials': WRONG_CREDENTIALS,
  'auth/user-disabled': 'This account has been disabled. Contact your administrator.',
  'auth/too-many-requests': 'Too many attempts. Wait a few minutes and try again, or reset your password.',
  'auth/network-request-failed': 'Network error: check your connection and try again.',
  'auth/invalid-email': 'Enter a valid e-mail address.',
  'auth/missing-password': 'Enter your password.',
  'auth/missing-email': 'Enter your e-mail address.',
};

export function signInErrorMessage(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return MESSAGES[code] ?? `Sign-in failed${code ? ` (${code})` : ''}. Try again.`;
}
