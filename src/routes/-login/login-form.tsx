import { useEffect, useId, useState, type FormEvent } from 'react';
import { useAuthView, useSessionServices } from '../-shared/session-services';

const DEFAULT_PASSWORD_MIN_LENGTH = 6;
type Notice = { kind: 'error' | 'info'; text: string } | null;

/**
 * E-mail and password sign-in through the identity provider, with a password-reset link. The form keeps what was
 * typed on every failure; the permissions lookup that follows a sign-in shows as "Signing in…".
 */
export function LoginForm() {
  const services = useSessionServices();
  const view = useAuthView();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [minLength, setMinLength] = useState(DEFAULT_PASSWORD_MIN_LENGTH);
  const emailId = useId();
  const passwordId = useId();
  const noticeId = useId();

  useEffect(() => {
    let live = true;
    services
      .passwordMinLength()
      .then((length) => live && setMinLength(length))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [services]);

  // After the identity provider accepts the password, the permissions lookup runs: still "Signing in…".
  const busy = submitting || view.status === 'resolving';
  const loginError = view.status === 'signedOut' ? view.loginError : null;
  const shown: Notice = notice ?? (loginError && !busy ? { kind: 'error', text: loginError } : null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    if (!email.trim()) return setNotice({ kind: 'error', text: 'Enter your e-mail address.' });
    if (password.length < minLength) {
      return setNotice({ kind: 'error', text: `Password must be at least ${minLength} characters.` });
    }
    setSubmitting(true);
    try {
      await services.signIn(email.trim(), password);
    } catch (error) {
      setNotice({ kind: 'error', text: error instanceof Error ? error.message : String(error) });
    } finally {
      setSubmitting(false);
    }
  }

  async function resetPassword() {
    setNotice(null);
    if (!email.trim()) {
      return setNotice({ kind: 'error', text: 'Enter your e-mail address first, then choose "Forgot password?".' });
    }
    try {
      await services.sendPasswordReset(email.trim());
      setNotice({ kind: 'info', text: `If an account exists for ${email.trim()}, a password reset link is on its way.` });
    } catch (error) {
      setNotice({ kind: 'error', text: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <main className="login-screen">
      <form className="login-card" onSubmit={submit} noValidate aria-describedby={shown ? noticeId : undefined}>
        <h1>Lightning Pay Admin</h1>
        <p className="muted">Sign in with your staff account.</p>
        <label htmlFor={emailId}>E-mail</label>
        <input
          id={emailId}
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <label htmlFor={passwordId}>Password</label>
        <input
          id={passwordId}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          minLength={minLength}
          required
        />
        {shown && (
          <p id={noticeId} className={shown.kind === 'error' ? 'form-error' : 'form-info'} role={shown.kind === 'error' ? 'alert' : 'status'}>
            {shown.text}
          </p>
        )}
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <button type="button" className="link-button" onClick={resetPassword}>
          Forgot password?
        </button>
      </form>
    </main>
  );
}
