import tseslint from 'typescript-eslint';

// The layers of docs/architecture.md are held by dependency-cruiser (`npm run lint:deps`, .dependency-cruiser.cjs),
// which resolves every import to the file it reaches. ESLint holds what a resolver cannot see: the console, and the
// contract and permission rules it shares, import zod/mini, never classic zod, which is not tree-shakable and would put
// all of zod into the console's bundle. (ESLint's own no-restricted-imports: import plugins need native resolvers whose
// other-platform builds the registry here lacks, which breaks `npm ci`;
// docs/decisions/0019-dependencies-pinned-for-this-machine.md.)
const classicZod = {
  name: 'zod',
  message: "Import from 'zod/mini': classic zod would put all of zod into the console's bundle.",
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'dist-e2e', 'dist-e2e-*', 'src/routeTree.gen.ts', 'test-results', 'bench/results', '.data'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: [classicZod] }] },
  },
  {
    // A spec's pages open its worker's own console only through test/e2e/test.ts's `test` (its base URL).
    files: ['test/e2e/**/*.spec.ts', 'test/docs-screenshots/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@playwright/test', message: "Import from test/e2e/test.ts: its `test` opens this worker's own stack." }] },
      ],
    },
  },
);
