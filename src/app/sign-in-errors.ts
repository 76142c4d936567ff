/**
 * Messages for the identity provider's sign-in and reset failures. Firebase reports them as `auth/...` codes; the
 * emulator and projects without e-mail enumeration protection report wrong password and unknown user separately,
 * protected projects report both as invalid-credential.
 */
const MESSAGES: Record<string, string> = {
  'auth/wrong-password': 'Wrong password. Try again, or reset your password.',
  'auth/user-not-found': 'No account exists for this e-mail address.',
  'auth/invalid-credential': 'Wrong e-mail or password. Try again, or reset your password.',
  'auth/invalid-login-credentials': 'Wrong e-mail or password. Try again, or reset your password.',
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
