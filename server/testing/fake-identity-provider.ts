import type { DecodedIdToken } from 'firebase-admin/auth';
import type { IdTokenAuth } from '../auth/firebase-verifier';
import type { IdentityAccounts, PasswordCheck } from '../auth/firebase-identities';

interface Account {
  uid: string;
  email: string;
  password: string;
  displayName?: string | undefined;
  emailVerified: boolean;
  disabled: boolean;
  /** Unix seconds: ID tokens signed in before this are revoked (Firebase's tokensValidAfterTime). */
  validSince: number;
}

interface IssuedToken {
  uid: string;
  email: string;
  emailVerified: boolean;
  authTime: number;
  expires: number;
}

const providerError = (code: string, message = code) => Object.assign(new Error(message), { code: `auth/${code}` });

/**
 * A model of Firebase Auth as the API meets it, for integration tests: accounts with uids, passwords, the verified
 * flag and `disabled`; ID tokens that, like real ones, carry what was true when they were issued; and the rules of
 * firebase-admin's verifyIdToken: a revoked, disabled or deleted account is noticed only with `checkRevoked`
 * (a production server without it keeps accepting such tokens until they expire). Setting a password revokes the
 * account's tokens, as Firebase does. The clock moves one second with every event, so "before" is never ambiguous.
 */
export class FakeIdentityProvider implements IdTokenAuth, IdentityAccounts {
  private accounts = new Map<string, Account>();
  private tokens = new Map<string, IssuedToken>();
  private seconds = 1_772_000_000;
  private nextUid = 1;
  /** Every account write (create, update), for asserting that a re-seed writes nothing. */
  readonly writes: string[] = [];

  private tick(): number {
    this.seconds += 1;
    return this.seconds;
  }

  private byEmail(email: string): Account | undefined {
    return [...this.accounts.values()].find((account) => account.email === email.toLowerCase());
  }

  private account(uid: string): Account {
    const account = this.accounts.get(uid);
    if (!account) throw providerError('user-not-found');
    return account;
  }

  // --- firebase-admin's Auth (the subset the API uses) ---

  async getUserByEmail(email: string) {
    const account = this.byEmail(email);
    if (!account) throw providerError('user-not-found');
    return { ...account };
  }

  async createUser(request: { email: string; password: string; displayName?: string; emailVerified: boolean }) {
    const uid = this.addAccount(request);
    this.writes.push(`create ${request.email}`);
    return { uid };
  }

  private addAccount(request: { email: string; password: string; displayName?: string; emailVerified: boolean }) {
    if (this.byEmail(request.email)) throw providerError('email-already-exists');
    const uid = `fake-uid-${this.nextUid++}`;
    this.accounts.set(uid, {
      uid,
      email: request.email.toLowerCase(),
      password: request.password,
      displayName: request.displayName,
      emailVerified: request.emailVerified,
      disabled: false,
      validSince: this.tick(),
    });
    return uid;
  }

  async updateUser(
    uid: string,
    changes: { password?: string; displayName?: string; emailVerified?: boolean; disabled?: boolean },
  ) {
    const account = this.account(uid);
    Object.assign(account, changes);
    if (changes.password !== undefined) account.validSince = this.tick();
    this.writes.push(`update ${account.email}: ${Object.keys(changes).sort().join(', ')}`);
    return { ...account };
  }

  async verifyIdToken(idToken: string, checkRevoked = false): Promise<DecodedIdToken> {
    const token = this.tokens.get(idToken);
    if (!token) throw providerError('argument-error', 'Decoding Firebase ID token failed.');
    if (token.expires <= this.seconds) throw providerError('id-token-expired');
    if (checkRevoked) {
      const account = this.account(token.uid);
      if (account.disabled) throw providerError('user-disabled');
      if (token.authTime < account.validSince) throw providerError('id-token-revoked');
    }
    return {
      uid: token.uid,
      sub: token.uid,
      email: token.email,
      email_verified: token.emailVerified,
      auth_time: token.authTime,
    } as DecodedIdToken;
  }

  // --- what users and administrators do at the provider ---

  /** Signs up as a new user would: a new uid, the e-mail not verified. */
  signUp(email: string, password: string): { uid: string } {
    return { uid: this.addAccount({ email, password, emailVerified: false }) };
  }

  /** A password sign-in: the ID token the console would send, or the provider's refusal. */
  signIn(email: string, password: string): string {
    const account = this.byEmail(email);
    if (!account || account.password !== password) throw providerError('invalid-credential');
    if (account.disabled) throw providerError('user-disabled');
    const authTime = this.tick();
    const idToken = `fake-id-token-${this.tokens.size + 1}`;
    this.tokens.set(idToken, {
      uid: account.uid,
      email: account.email,
      emailVerified: account.emailVerified,
      authTime,
      expires: authTime + 3600,
    });
    return idToken;
  }

  /** Following the link in the verification e-mail. Tokens issued before still say "not verified", as real ones do. */
  verifyEmail(uid: string): void {
    this.account(uid).emailVerified = true;
  }

  revokeRefreshTokens(uid: string): void {
    this.account(uid).validSince = this.tick();
  }

  disable(uid: string): void {
    this.account(uid).disabled = true;
  }

  deleteUser(uid: string): void {
    this.account(uid);
    this.accounts.delete(uid);
  }

  state(email: string): Account | undefined {
    const account = this.byEmail(email);
    return account && { ...account };
  }

  /** The password check seeding uses, answered like the emulator's REST sign-in. */
  readonly checkPassword: PasswordCheck = async (email, password) => {
    const account = this.byEmail(email);
    if (!account) return 'differs';
    if (account.disabled) return 'unknown';
    return account.password === password ? 'matches' : 'differs';
  };
}
