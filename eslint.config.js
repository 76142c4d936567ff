import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// Layers (docs/architecture.md): routes → machines/api/ui/app → permissions. The shared permission rules import
// nothing of the app; the server imports only the shared rules and the API contract from src/.
export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'dist-e2e', 'src/routeTree.gen.ts', 'test-results', 'bench/results', '.data'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/permissions',
              from: './src',
              except: ['./permissions'],
              message: 'The permission rules are shared with the server: they import nothing of the console.',
            },
            { target: './src/permissions', from: './server', message: 'The permission rules import nothing of the server.' },
            {
              target: './src/contract',
              from: './src',
              except: ['./contract', './permissions'],
              message: 'The API contract is shared with the server: it may import only the permission rules.',
            },
            {
              target: './server',
              from: './src',
              except: ['./permissions', './contract'],
              message: 'The server may import only src/permissions and src/contract from the console.',
            },
            { target: './src', from: './server', message: 'The console never imports server code.' },
            { target: './src', from: './test', message: 'Production code never imports test code.' },
          ],
        },
      ],
    },
  },
);
