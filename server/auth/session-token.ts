import { errors, jwtVerify, SignJWT } from 'jose';
import type { SessionErrorCode } from '../../src/contract/envelope';

/**
 * The API's own session token (spec §7 JwtToken): an HS256 JWT carrying the staff e-mail and the identity provider's
 * uid (`sub`), issued by the permissions lookup and checked on every protected call. The uid ties the session to the
 * identity that started it: with any other account's ID token, even one for the same e-mail, it is refused.
 */
export interface SessionTokenConfig {
  secret: Uint8Array;
  ttlSeconds: number;
  now: () => Date;
}

export interface SessionSubject {
  email: string;
  uid: string;
}

export interface SessionClaims extends SessionSubject {
  expiresAt: Date;
}

export type SessionCheck = { ok: true; claims: SessionClaims } | { ok: false; code: SessionErrorCode; message: string };

const ALGORITHM = 'HS256';
/** Enough for every console signed in to one API process; each entry is a token and three short claims. */
const VERIFIED_TOKENS_KEPT = 10_000;
const AUDIENCE = 'lightning-pay-admin';

export const SESSION_ERROR_MESSAGES: Record<SessionErrorCode, string> = {
  NoTokenProvided: 'No session token was provided. Please sign in.',
  InvalidToken: 'The session token is not valid. Please sign in again.',
  TokenExpired: 'Your session has expired. Please sign in again.',
};

export function createSessionTokens(config: SessionTokenConfig) {
  const epochSeconds = () => Math.floor(config.now().getTime() / 1000);
  // Imported once: given the raw secret, jose imports a Web Crypto key on every sign and verify, which was a
  // measurable share of each protected call (BENCHMARKS.md at f3b7360, "Money").
  let hmacKey: Promise<CryptoKey> | undefined;
  const key = () =>
    (hmacKey ??= crypto.subtle.importKey('raw', new Uint8Array(config.secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]));

  async function issue({ email, uid }: SessionSubject): Promise<{ token: string; expiresAt: Date }> {
    const issuedAt = epochSeconds();
    const expiresAtSeconds = issuedAt + config.ttlSeconds;
    const token = await new SignJWT({ email })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(uid)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAtSeconds)
      .sign(await key());
    return { token, expiresAt: new Date(expiresAtSeconds * 1000) };
  }

  // Tokens whose signature and claims were checked: a console sends the same token on every call for hours, and
  // Web Crypto's per-call overhead was a large share of a protected call. Only the expiry is checked again. A Map
  // keeps insertion order, so dropping the first key evicts the oldest.
  const verified = new Map<string, SessionClaims>();

  async function verify(token: string | undefined | null): Promise<SessionCheck> {
    const failure = (code: SessionErrorCode): SessionCheck => ({
      ok: false,
      code,
      message: SESSION_ERROR_MESSAGES[code],
    });
    if (!token || token.trim() === '') return failure('NoTokenProvided');
    const known = verified.get(token.trim());
    if (known) {
      if (known.expiresAt.getTime() <= config.now().getTime()) {
        verified.delete(token.trim());
        return failure('TokenExpired');
      }
      return { ok: true, claims: known };
    }
    try {
      const { payload } = await jwtVerify(token.trim(), await key(), {
        algorithms: [ALGORITHM],
        audience: AUDIENCE,
        currentDate: config.now(),
        requiredClaims: ['exp'],
      });
      // Tokens issued before sessions carried the uid have no `sub`: they are refused, and the user signs in again.
      const { email, sub, exp } = payload;
      if (typeof email !== 'string' || typeof sub !== 'string' || sub === '' || typeof exp !== 'number') {
        return failure('InvalidToken');
      }
      const claims = { email, uid: sub, expiresAt: new Date(exp * 1000) };
      if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
      verified.set(token.trim(), claims);
      return { ok: true, claims };
    } catch (error) {
      // Only an otherwise good token past its exp counts as expired; a forged one with an old exp is just invalid,
      // and jose checks the signature before the claims.
      if (error instanceof errors.JWTExpired) return failure('TokenExpired');
      return failure('InvalidToken');
    }
  }

  return { issue, verify };
}

export type SessionTokens = ReturnType<typeof createSessionTokens>;
