import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'release/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain JavaScript entry points run on Node (TypeScript files get their globals from @types/node).
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The layers flow one way: kube -> snapshot -> plan -> drain -> ui <- cli. plan/ is pure.
    files: ['src/plan/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/kube/**', '**/drain/**', '**/ui/**', '**/cli/**'],
              message: 'plan/ is pure: it may import snapshot types only.',
            },
            {
              group: ['node:fs', 'node:fs/*', 'node:child_process', 'node:net', 'node:http', 'node:https'],
              message: 'plan/ does no I/O.',
            },
            {
              group: ['@kubernetes/client-node'],
              allowTypeImports: true,
              message: 'plan/ may use client-node types only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/snapshot/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/plan/**', '**/drain/**', '**/ui/**', '**/cli/**'],
              message: 'snapshot/ sits below plan/, drain/, ui/ and cli/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/kube/**', '**/cli/**'], message: 'ui/ only renders: it must not talk to the API server.' },
          ],
        },
      ],
    },
  },
);
