// The drawing of docs/architecture.md, held by dependency-cruiser (`npm run lint:deps`, part of `npm run lint`). It
// resolves every import as the bundler and tsx do, so a rule sees the file an import reaches, however it is spelled
// (`../../app/x`, `./x.ts`, a dynamic `import()`, a type-only import). No rule names a dependency type: a dynamic
// `import()` is held to the same rules as a static import.

// Code of this repository, as opposed to packages and Node's modules.
const OURS = '^(src|server|bench|scripts|test)/';
// A test beside the code it tests. Tests are leaves (nothing imports them), so the layer rules do not bind them: a
// test may reach the fixtures, the app or the server it checks against. Cycles and unresolvable imports still count.
const TEST = '\\.test\\.tsx?$';
// A section: one route group folder (docs/sections.md); the group is the section's name.
const SECTION = '^src/routes/_authenticated/\\(([^)/]+)\\)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles anywhere: a module that is part of one may be read half-initialised, and the two halves ' +
        'can only be understood together. Move what both need into a module of its own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'console-not-to-server-or-test',
      severity: 'error',
      comment: 'The console (src/) never imports the server or test code.',
      from: { path: '^src/', pathNot: TEST },
      to: { path: '^(server|test)/' },
    },
    {
      name: 'permissions-import-nothing',
      severity: 'error',
      comment:
        'The permission rules are shared by the console and the server: they import nothing of either, only packages.',
      from: { path: '^src/permissions/' },
      to: { path: OURS, pathNot: '^src/permissions/' },
    },
    {
      name: 'contract-only-to-permissions',
      severity: 'error',
      comment:
        'The API contract is shared by the console and the server: it may import only the permission rules and the ' +
        "rates' domain (a rate set's choices).",
      from: { path: '^src/contract/' },
      to: { path: OURS, pathNot: '^src/(contract|permissions|rates)/' },
    },
    {
      name: 'rates-only-to-shared',
      severity: 'error',
      comment:
        'The rates (quotes, rate sets) run in the console, its worker and the server: they import only the contract ' +
        'and the permission rules.',
      from: { path: '^src/rates/' },
      to: { path: OURS, pathNot: '^src/(rates|contract|permissions)/' },
    },
    {
      name: 'server-only-to-shared-src',
      severity: 'error',
      comment: 'The server may import only the shared parts of src/: the contract, the permission rules and the rates.',
      // Its tests are leaves like every test: the citation outbox's fault test drives the console's outbox against it.
      from: { path: '^server/', pathNot: TEST },
      to: { path: '^src/', pathNot: '^src/(contract|permissions|rates)/' },
    },
    {
      name: 'server-db-below-everything',
      severity: 'error',
      comment:
        'server/db is the lowest server layer: it imports no http, auth or routes code, and outside server/db/seed no ' +
        'seed code (seeds write demo data through db; the app never needs them).',
      from: { path: '^server/db/', pathNot: `^server/db/seed/|${TEST}` },
      to: { path: '^server/(http|auth|routes|testing|dashboards|mailing|copy)/|^server/db/seed/' },
    },
    {
      name: 'server-auth-only-to-db',
      severity: 'error',
      comment: 'server/auth verifies sign-ins and sessions: it may use db, never http, routes or seed code.',
      from: { path: '^server/auth/', pathNot: TEST },
      to: { path: '^server/(http|routes|testing)/|^server/db/seed/' },
    },
    {
      name: 'server-http-not-to-routes',
      severity: 'error',
      comment: 'server/http is the section kit the routes are built from (routes → http → db): it never imports a route.',
      from: { path: '^server/http/' },
      to: { path: '^server/routes/' },
    },
    {
      name: 'server-cli-is-a-leaf',
      severity: 'error',
      comment:
        'server/cli holds the command-line tools (npm run seed, seed:users, staff:relink): they use the app, the app ' +
        'never uses them.',
      from: { path: '^server/', pathNot: `^server/cli/|${TEST}` },
      to: { path: '^server/cli/' },
    },
    {
      name: 'routes-not-to-app',
      severity: 'error',
      comment:
        'Routes never import src/app: the app wires the routes (router, providers) and the routes take what they ' +
        'need from src/routes/-shared (guards, list helpers, navigation, session and enforcement contexts).',
      from: { path: '^src/routes/', pathNot: TEST },
      to: { path: '^src/app/' },
    },
    {
      name: 'ui-and-machines-not-to-app',
      severity: 'error',
      comment:
        'src/ui and src/machines never import src/app: the app passes what they need in (props or context for ui, ' +
        '.provide() or input for machines).',
      from: { path: '^src/(ui|machines)/', pathNot: TEST },
      to: { path: '^src/app/' },
    },
    {
      name: 'section-not-to-other-section',
      severity: 'error',
      comment:
        "A section imports the kit (src/ui), the contract, the API and src/routes/-shared, never another section's " +
        'route group folder.',
      from: { path: SECTION, pathNot: TEST },
      to: { path: SECTION, pathNot: '^src/routes/_authenticated/\\($1\\)/' },
    },
    {
      name: 'no-unresolvable-import',
      severity: 'error',
      comment: 'An import the resolver cannot follow escapes every rule above (and fails at run time).',
      from: { path: OURS },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Build output, test reports and data. The router's generated tree stays in: a cycle through it is one too.
    exclude: { path: '(^|/)(node_modules|dist|dist-e2e[-0-9]*|test-results|playwright-report|bench/results|\\.data)/' },
    // Type-only imports count: a layer's types are as much a dependency as its values.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
