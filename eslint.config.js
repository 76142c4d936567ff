import tseslint from 'typescript-eslint';

// Layers (README "Architecture"): routes → machines/api/ui/app → permissions. The shared permission rules import
// nothing of the app; the API contract imports only them; the server imports only those two from src/; the console
// never imports the server or tests. (ESLint's own no-restricted-imports: import plugins need native resolvers
// whose other-platform builds the registry here lacks, which breaks `npm ci`.)
const restrict = (files, group, message, paths = []) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }], paths }] },
});

// Classic zod is not tree-shakable: the console (and the contract and permission rules it shares) use zod/mini.
const classicZod = [
  { name: 'zod', message: "Import from 'zod/mini': classic zod would put all of zod into the console's bundle." },
];

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
    ['../*', '**/server/**', '**/test/**'],
    'The permission rules are shared with the server: they import nothing of the console or the server.',
    classicZod,
  ),
  restrict(
    ['src/contract/**/*.ts'],
    [...['app', 'routes', 'ui', 'api', 'machines', 'worker'].map((layer) => `../${layer}/*`), '**/server/**', '**/test/**'],
    'The API contract is shared with the server: it may import only the permission rules.',
    classicZod,
  ),
  restrict(
    ['server/**/*.ts'],
    ['app', 'routes', 'ui', 'api', 'machines', 'worker'].map((layer) => `**/src/${layer}/**`),
    'The server may import only src/permissions and src/contract from the console.',
  ),
  restrict(
    ['src/app/**', 'src/routes/**', 'src/ui/**', 'src/api/**', 'src/machines/**', 'src/worker/**'],
    ['**/server/**', '**/test/**'],
    'The console never imports server or test code.',
    classicZod,
  ),
);
