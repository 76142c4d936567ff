import tseslint from 'typescript-eslint';

// Layers (docs/architecture.md): routes → machines/api/ui/app → permissions. The shared permission rules import
// nothing of the app; the API contract imports only them; the server imports only those two from src/; the console
// never imports the server or tests; src/ui and src/machines never import src/app (the app hands them what they
// need). (ESLint's own no-restricted-imports: import plugins need native resolvers whose other-platform builds the
// registry here lacks, which breaks `npm ci`; docs/decisions/0019-dependencies-pinned-for-this-machine.md.) ESLint
// takes a rule's options from the last config that matches a file, so a config for files another one covers repeats
// that one's restrictions.
const restrict = (files, patterns, paths = []) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns, paths }] },
});

// Classic zod is not tree-shakable: the console (and the contract and permission rules it shares) use zod/mini.
const classicZod = [
  { name: 'zod', message: "Import from 'zod/mini': classic zod would put all of zod into the console's bundle." },
];

const noServerOrTests = {
  group: ['**/server/**', '**/test/**'],
  message: 'The console never imports server or test code.',
};
const noApp = {
  // Any number of ../ then app: the relative ways up to src/app from src/ui and src/machines (no aliases here).
  regex: '^(\\.\\./)+app(/|$)',
  message:
    'src/ui and src/machines never import src/app: the app passes what they need in (props or context for ui, ' +
    '.provide() or input for machines).',
};

const noAppFromRoutes = {
  regex: '^(\\.\\./)+app(/|$)',
  message:
    'Routes never import src/app: the app wires the routes (router, providers) and the routes take what they need ' +
    'from src/routes/-shared (guards, list helpers, navigation, session and enforcement contexts).',
};

// A section is the unit (docs/sections.md): one route group folder, `src/routes/_authenticated/(<section>)/`, holds its
// route files and, in `-components/`, its screens. They import the kit (src/ui), the contract, the API and
// src/routes/-shared, never another section's folder.
const SECTIONS = [
  'dashboards',
  'database-copy',
  'enforcement',
  'enforcement-lite',
  'locations',
  'mailing',
  'promo-codes',
  'rates',
  'refund-portal',
  'roles',
  'users',
];
const sectionRules = SECTIONS.map((section) =>
  restrict(
    [`src/routes/_authenticated/(${section})/**`],
    [
      noServerOrTests,
      noAppFromRoutes,
      {
        // Specifiers as written: any relative path through another section's group folder.
        group: SECTIONS.filter((other) => other !== section).map((other) => `**/(${other})/**`),
        message: `The ${section} section imports the section kit (src/ui) and src/routes/-shared, never another section's folder.`,
      },
    ],
    classicZod,
  ),
);

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'dist-e2e', 'src/routeTree.gen.ts', 'test-results', 'bench/results', '.data'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  restrict(
    ['src/permissions/**/*.ts'],
    [
      {
        group: ['../*', '**/server/**', '**/test/**'],
        message: 'The permission rules are shared with the server: they import nothing of the console or the server.',
      },
    ],
    classicZod,
  ),
  restrict(
    ['src/contract/**/*.ts'],
    [
      {
        group: [
          ...['app', 'routes', 'ui', 'api', 'machines', 'worker'].map((layer) => `../${layer}/*`),
          '**/server/**',
          '**/test/**',
        ],
        message: 'The API contract is shared with the server: it may import only the permission rules.',
      },
    ],
    classicZod,
  ),
  restrict(
    ['server/**/*.ts'],
    [
      {
        group: ['app', 'routes', 'ui', 'api', 'machines', 'worker'].map((layer) => `**/src/${layer}/**`),
        message: 'The server may import only src/permissions and src/contract from the console.',
      },
    ],
  ),
  restrict(['src/app/**', 'src/api/**', 'src/worker/**'], [noServerOrTests], classicZod),
  restrict(['src/routes/**'], [noServerOrTests, noAppFromRoutes], classicZod),
  ...sectionRules,
  restrict(['src/ui/**', 'src/machines/**'], [noServerOrTests, noApp], classicZod),
  // The engine's lazily imported half never imports the half that imports it: no cycle between the two.
  restrict(['src/app/start-enforcement-engine.ts'], [noServerOrTests], [
    ...classicZod,
    {
      name: './enforcement-engine',
      message: 'enforcement-engine.ts imports this module (lazily): importing it back would make a cycle.',
    },
  ]),
);
