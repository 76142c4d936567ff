import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The repository's own rules (.dependency-cruiser.cjs, run by `npm run lint`) applied to small probe files laid out
// like the repository, in a folder of their own: each probe breaks one rule, and the allowed imports beside them
// must not be reported.
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;

const SECTIONS = 'src/routes/_authenticated';
const PROBES: Record<string, string> = {
  // A cycle of two static imports, and one closed by a dynamic import().
  'src/api/client.ts': "import { readBody } from './download-body';\nexport const client = readBody;\n",
  'src/api/download-body.ts': "import { client } from './client';\nexport const readBody = () => client;\n",
  'src/machines/sync.ts': "import { engine } from './engine';\nexport const sync = engine;\n",
  'src/machines/engine.ts': "export const engine = () => import('./sync');\n",
  // Routes → app, statically; ui → app, only through a dynamic import().
  'src/app/session.ts': 'export const session = 1;\n',
  'src/routes/-shared/session.ts': "import { session } from '../../app/session';\nexport const shared = session;\n",
  'src/ui/lazy.ts': "export const loadSession = () => import('../app/session');\n",
  // A test beside the code is a leaf: it may reach the app and the server it checks against (allowed).
  'src/ui/lazy.test.ts': "import { session } from '../app/session';\nimport { db } from '../../server/db/db';\nexport const t = [session, db];\n",
  // A section reaching into another one's folder, and one into its own and into src/routes/-shared (allowed).
  [`${SECTIONS}/(users)/-components/user-form.ts`]: 'export const userForm = 1;\n',
  [`${SECTIONS}/(users)/users.ts`]:
    "import { userForm } from './-components/user-form';\nimport { shared } from '../../-shared/session';\n" +
    'export const users = [userForm, shared];\n',
  [`${SECTIONS}/(enforcement-lite)/-components/officers.ts`]:
    "import { userForm } from '../../(users)/-components/user-form';\nexport const officers = userForm;\n",
  [`${SECTIONS}/(enforcement)/verdict.ts`]:
    "export const officers = () => import('../(enforcement-lite)/-components/officers');\n",
  // The shared layers: the server reaching past them, the contract past the permissions, the permissions out.
  'src/permissions/rules.ts': 'export const rules = 1;\n',
  'src/contract/users.ts':
    "import { rules } from '../permissions/rules';\nimport { session } from '../app/session';\n" +
    'export const contract = [rules, session];\n',
  'server/routes/users.ts':
    "import { contract } from '../../src/contract/users';\nimport { loadSession } from '../../src/ui/lazy';\n" +
    'export const route = [contract, loadSession];\n',
  // Server layers (routes → http → db): db reaching up to http and into seed code, auth into http, http into a
  // route; db/seed may use db, and a route may use http and db (allowed).
  'server/http/scope.ts': "import { route } from '../routes/users';\nexport const scope = route;\n",
  'server/db/promo-codes.ts':
    "import type { scope } from '../http/scope';\nimport { demo } from './seed/demo';\nexport const rows = [demo] as unknown as typeof scope;\n",
  'server/db/db.ts': 'export const db = 1;\n',
  'server/db/seed/demo.ts': "import { db } from '../db';\nexport const demo = () => db;\n",
  'server/auth/session.ts': "import { scope } from '../http/scope';\nexport const session = scope;\n",
  'server/routes/promo-codes.ts':
    "import { scope } from '../http/scope';\nimport { rows } from '../db/promo-codes';\nexport const promo = [scope, rows];\n",
};

let probeDir = '';
let result: ICruiseResult;

beforeAll(async () => {
  probeDir = mkdtempSync(path.join(tmpdir(), 'dependency-rules-'));
  for (const [file, source] of Object.entries(PROBES)) {
    mkdirSync(path.dirname(path.join(probeDir, file)), { recursive: true });
    writeFileSync(path.join(probeDir, file), source);
  }
  // The repository's options but its tsconfig: the probes resolve relative imports only.
  const { tsConfig: _repositoryTsConfig, ...options } = config.options ?? {};
  const cruised = await cruise(['src', 'server'], {
    ...options,
    baseDir: probeDir,
    validate: true,
    ruleSet: { forbidden: config.forbidden ?? [] },
  });
  result = cruised.output as ICruiseResult;
});

afterAll(() => rmSync(probeDir, { recursive: true, force: true }));

/** "from → to" of each dependency that breaks the rule. */
function reported(rule: string): string[] {
  return result.summary.violations
    .filter((violation) => violation.rule.name === rule)
    .map((violation) => `${violation.from} → ${violation.to}`)
    .sort();
}

describe('the dependency rules of npm run lint (.dependency-cruiser.cjs)', () => {
  it('cruise every probe', () => {
    expect(result.modules.map((module) => module.source).sort()).toEqual(Object.keys(PROBES).sort());
  });

  it('report an import cycle, also one closed by a dynamic import()', () => {
    // A cycle is reported once, from whichever of its modules the cruise met first.
    const cycles = result.summary.violations
      .filter((violation) => violation.rule.name === 'no-circular')
      .map((violation) => [violation.from, violation.to].sort().join(' ↔ '))
      .sort();
    expect(cycles).toEqual([
      'src/api/client.ts ↔ src/api/download-body.ts',
      'src/machines/engine.ts ↔ src/machines/sync.ts',
    ]);
  });

  it('report routes importing src/app', () => {
    expect(reported('routes-not-to-app')).toEqual(['src/routes/-shared/session.ts → src/app/session.ts']);
  });

  it('report a dynamic import() that breaks a layer (ui → app)', () => {
    expect(reported('ui-and-machines-not-to-app')).toEqual(['src/ui/lazy.ts → src/app/session.ts']);
  });

  it("report a section importing another section's folder, statically or dynamically, but not its own", () => {
    expect(reported('section-not-to-other-section')).toEqual([
      `${SECTIONS}/(enforcement)/verdict.ts → ${SECTIONS}/(enforcement-lite)/-components/officers.ts`,
      `${SECTIONS}/(enforcement-lite)/-components/officers.ts → ${SECTIONS}/(users)/-components/user-form.ts`,
    ]);
  });

  it('report the shared layers reaching past what they may import', () => {
    expect(reported('contract-only-to-permissions')).toEqual(['src/contract/users.ts → src/app/session.ts']);
    expect(reported('server-only-to-shared-src')).toEqual(['server/routes/users.ts → src/ui/lazy.ts']);
  });

  it('report the server layers broken: db up to http or into seeds, auth into http, http into a route', () => {
    expect(reported('server-db-below-everything')).toEqual([
      'server/db/promo-codes.ts → server/db/seed/demo.ts',
      'server/db/promo-codes.ts → server/http/scope.ts',
    ]);
    expect(reported('server-auth-only-to-db')).toEqual(['server/auth/session.ts → server/http/scope.ts']);
    expect(reported('server-http-not-to-routes')).toEqual(['server/http/scope.ts → server/routes/users.ts']);
  });

  it('report nothing else: the allowed imports beside the probes pass', () => {
    const rules = new Set(result.summary.violations.map((violation) => violation.rule.name));
    expect([...rules].sort()).toEqual(
      [
        'contract-only-to-permissions',
        'no-circular',
        'routes-not-to-app',
        'section-not-to-other-section',
        'server-auth-only-to-db',
        'server-db-below-everything',
        'server-http-not-to-routes',
        'server-only-to-shared-src',
        'ui-and-machines-not-to-app',
      ].sort(),
    );
    expect(result.summary.violations).toHaveLength(12);
  });
});
