import type { OpenAPIHono } from '@hono/zod-openapi';
import type { VerifyIdToken } from '../auth/id-token';
import type { SessionTokens } from '../auth/session-token';
import type { Db } from '../db/db';

export type ApiApp = OpenAPIHono;

/** What route handlers need; assembled once by createApp. */
export interface RouteDeps {
  db: Db;
  verifyIdToken: VerifyIdToken;
  sessions: SessionTokens;
  now: () => Date;
}

/** Names of the OpenAPI security schemes, registered in app.ts and referenced by routes. */
export const FIREBASE_ID_TOKEN = 'firebaseIdToken';
export const SESSION_TOKEN = 'sessionToken';
export const STAFF_SECURITY = [{ [FIREBASE_ID_TOKEN]: [], [SESSION_TOKEN]: [] }];
