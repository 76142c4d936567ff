import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { SESSION_HEADER } from '../src/contract/envelope';
import { IDEMPOTENCY_KEY_HEADER } from '../src/contract/refunds';
import type { VerifyIdToken } from './auth/id-token';
import { createSessionTokens } from './auth/session-token';
import type { Db } from './db/db';
import { readServerConfig } from './config';
import type { DevSeedReport } from './db/seed/dev-seed';
import { FIREBASE_ID_TOKEN, SESSION_TOKEN, type ApiApp } from './http/api-app';
import { envelopeErrorHandler, envelopeNotFound, type LogError } from './http/errors';
import { failure } from './http/responses';
import { securityHeaders } from './http/security-headers';
import { validationHook } from './http/validation';
import { registerAuthRoutes } from './routes/auth';
import { registerDashboardRoutes } from './routes/dashboards';
import { registerDevMailingOptOutRoute } from './routes/dev-mailing-opt-outs';
import { registerDevPaymentRoute } from './routes/dev-payments';
import { devRatesClock, registerDevRatesClockRoute } from './routes/dev-rates-clock';
import { registerDevReseedRoute } from './routes/dev-reseed';
import { registerEnforcementRoutes } from './routes/enforcement';
import { registerEnforcementLiteRoutes } from './routes/enforcement-lite';
import { registerHealthRoute } from './routes/health';
import { registerApiReferencePage } from './api-reference/page';
import { registerLocationRoutes } from './routes/locations';
import { registerMailingRoutes, type MailingDeps } from './routes/mailing';
import { registerPromoCodeRoutes } from './routes/promo-codes';
import { registerCitationRoutes } from './routes/citations';
import { registerRateRoutes } from './routes/rates';
import { registerRefundTicketRoutes } from './routes/refund-tickets';
import { registerRefundRoutes } from './routes/refunds';
import { registerTransactionRoutes } from './routes/transactions';
import { registerRoleRoutes } from './routes/roles';
import { registerUserRoutes } from './routes/users';
import { localCopyDatabases, type CopyDatabases } from './copy/copy-databases';
import { createCopyService } from './copy/copy-service';
import { registerDatabaseCopyRoutes } from './routes/database-copy';
import type { StaffAccounts } from './auth/staff-accounts';

export interface AppDeps {
  db: Db;
  verifyIdToken: VerifyIdToken;
  session: { secret: Uint8Array; ttlSeconds: number };
  /** Browser origins of the console, allowed to call with credentials. */
  corsOrigins: readonly string[];
  /** The clock for session tokens, sign-in times and enforcement sync (valid vs expired); tests move it. */
  now?: () => Date;
  /** When given (DEV_SEED=1), POST /dev/reseed runs it. */
  devReseed?: () => Promise<DevSeedReport>;
  logError?: LogError;
  /** The identity provider's accounts, for inviting staff (firebase-admin; a model in tests). */
  staffAccounts?: StaffAccounts;
  /** Mailing's SMTP settings and job runner (absent: the local MailDev defaults of config.ts, no runner). */
  mailer?: MailingDeps;
  /** Database Copy's named databases (COPY_DATABASES); by default this database and a staging PGlite in memory. */
  copyDatabases?: CopyDatabases;
  /** Requests whose Origin has this host name are refused Database Copy (PRODUCTION_ADMIN_HOST). */
  productionAdminHost?: string;
  /** Serve the API reference page at /reference (development; main.ts leaves it off with NODE_ENV=production). */
  apiReferencePage?: boolean;
}

/** The console's default VITE_PRODUCTION_HOST (src/app/config.ts): the same host on both sides unless configured. */
export const DEFAULT_PRODUCTION_ADMIN_HOST = 'admin.lightningpay.com';

/**
 * Requests are small JSON documents; anything bigger is refused before it is read into memory. The limit leaves room
 * for a field pasted a thousand times over (a 1 MB name), so that such a mistake is answered with the field's own
 * 400, not a bare 413.
 */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export function createApp(deps: AppDeps): ApiApp {
  const now = deps.now ?? (() => new Date());
  const logError: LogError = deps.logError ?? ((message, error) => console.error(`[api] ${message}:`, error));
  const sessions = createSessionTokens({ ...deps.session, now });

  // Paths are matched exactly as the contract writes them, trailing slash included (/load-permissions/).
  const app: ApiApp = new OpenAPIHono({ defaultHook: validationHook });
  app.onError(envelopeErrorHandler(logError));
  app.notFound(envelopeNotFound);

  app.use('*', securityHeaders);
  app.use(
    '*',
    cors({
      origin: [...deps.corsOrigins],
      credentials: true,
      allowHeaders: ['Authorization', SESSION_HEADER, 'Content-Type', IDEMPOTENCY_KEY_HEADER],
      allowMethods: ['GET', 'POST', 'OPTIONS'],
      // The console runs on another origin in production; without this it cannot read a CSV export's file name.
      exposeHeaders: ['Content-Disposition'],
      maxAge: 600,
    }),
  );
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      // The rest of the body is not read: the connection cannot carry another request, so say it will close
      // (otherwise the client reuses it and its next request is lost when the server drops the socket).
      onError: (c) => {
        c.header('Connection', 'close');
        return c.json(failure(`Request body larger than ${MAX_BODY_BYTES} bytes.`), 413);
      },
    }),
  );

  const routeDeps = { db: deps.db, verifyIdToken: deps.verifyIdToken, sessions, now };
  registerHealthRoute(app);
  if (deps.apiReferencePage) registerApiReferencePage(app);
  registerAuthRoutes(app, routeDeps);
  registerLocationRoutes(app, routeDeps);
  registerTransactionRoutes(app, routeDeps);
  registerDashboardRoutes(app, routeDeps);
  registerRefundRoutes(app, routeDeps);
  registerRefundTicketRoutes(app, routeDeps);
  registerPromoCodeRoutes(app, routeDeps);
  registerCitationRoutes(app, routeDeps);
  // Development and end-to-end stacks only (DEV_SEED=1): the rates' clock can be moved ahead, so that a test sees a
  // scheduled change take effect (POST /dev/rates-clock); everything else keeps the real clock.
  const ratesClock = deps.devReseed ? devRatesClock(now) : null;
  registerRateRoutes(app, ratesClock ? { ...routeDeps, now: ratesClock.now } : routeDeps);
  registerEnforcementRoutes(app, routeDeps);
  registerUserRoutes(app, routeDeps, deps.staffAccounts);
  registerRoleRoutes(app, routeDeps);
  registerMailingRoutes(app, routeDeps, deps.mailer ?? { settings: readServerConfig({}).mail });
  registerDatabaseCopyRoutes(app, {
    ...routeDeps,
    copies: createCopyService({
      db: deps.db,
      databases: deps.copyDatabases ?? localCopyDatabases(deps.db, 'memory://'),
      now,
      logError,
    }),
    productionAdminHost: deps.productionAdminHost ?? DEFAULT_PRODUCTION_ADMIN_HOST,
  });
  registerEnforcementLiteRoutes(app, routeDeps, deps.staffAccounts);
  if (deps.devReseed) registerDevReseedRoute(app, deps.devReseed);
  // Development and end-to-end stacks only (DEV_SEED=1), like /dev/reseed: lets simulate:payments and tests pay.
  if (deps.devReseed) registerDevPaymentRoute(app, deps.db, now);
  // The same: lets a test size a mailing's segment exactly (opt-outs as unsubscribing would make them).
  if (deps.devReseed) registerDevMailingOptOutRoute(app, deps.db);
  if (ratesClock) registerDevRatesClockRoute(app, ratesClock);

  app.openAPIRegistry.registerComponent('securitySchemes', FIREBASE_ID_TOKEN, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Firebase ID token of the signed-in user',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', SESSION_TOKEN, {
    type: 'apiKey',
    in: 'header',
    name: SESSION_HEADER,
    description: 'Session token issued by POST /auth/permissions (userData.token)',
  });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Lightning Pay Admin API',
      version: '0.1.0',
      description:
        'Reference API of the Lightning Pay Admin console. Every response is an envelope {success, data, message}.',
    },
  });
  return app;
}
