import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const PURE = 'plan/ is pure: no clock and no randomness (the same snapshot and options give the same plan).';
const PLAN_CLOCK_GLOBALS = [
  'performance',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'queueMicrotask',
  'crypto',
];

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
    // The layers flow one way: kube -> snapshot -> plan -> drain -> run -> ui <- cli. plan/ is pure.
    files: ['src/plan/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/kube/**', '**/drain/**', '**/run/**', '**/ui/**', '**/cli/**'],
              message: 'plan/ is pure: it may import snapshot types only.',
            },
            {
              group: ['node:fs', 'node:fs/*', 'node:child_process', 'node:net', 'node:http', 'node:https'],
              message: 'plan/ does no I/O.',
            },
            {
              group: ['node:timers', 'node:timers/*', 'node:perf_hooks', 'node:crypto'],
              message: 'plan/ reads no clock and draws no random number: the same snapshot gives the same plan.',
            },
            {
              group: ['@kubernetes/client-node'],
              allowTypeImports: true,
              message: 'plan/ may use client-node types only.',
            },
          ],
        },
      ],
      // No clock and no randomness: a plan is a function of the snapshot and the options alone.
      'no-restricted-globals': ['error', ...PLAN_CLOCK_GLOBALS.map((name) => ({ name, message: PURE }))],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: PURE },
        { object: 'Math', property: 'random', message: PURE },
        { object: 'process', property: 'hrtime', message: PURE },
        { object: 'process', property: 'uptime', message: PURE },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: PURE },
        { selector: "CallExpression[callee.name='Date']", message: PURE },
      ],
    },
  },
  {
    // drain/ drives the API through kube/ and reads plan/ and snapshot/; run/ drives it, never the other
    // way; it never renders or parses flags.
    files: ['src/drain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/ui/**', '**/cli/**'], message: 'drain/ emits events; ui/ renders them and cli/ wires both.' },
            { group: ['**/run/**'], message: 'drain/ sits below run/: a run drives drains.' },
          ],
        },
      ],
    },
  },
  {
    // run/ drives a pool over drain/, plan/ and kube/; like drain/ it emits events and never renders.
    files: ['src/run/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/ui/**', '**/cli/**'], message: 'run/ emits events; ui/ renders them and cli/ wires both.' },
          ],
        },
      ],
    },
  },
  {
    // The base modules at the top of src/ (wording, terminal-safe text, JSON scanning, timers, the version,
    // the single executable's loader) serve every layer and import none: a layer's code here would let
    // one layer reach another's around the rules below.
    files: ['src/*.ts', 'src/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['./kube/**', './snapshot/**', './plan/**', './drain/**', './run/**', './ui/**', './cli/**'],
              message: 'The base modules of src/ import no layer: move the code into the layer that needs it.',
            },
            { group: ['@kubernetes/client-node', 'ink', 'react'], message: 'The base modules import no layer.' },
          ],
        },
      ],
    },
  },
  {
    // kube/ is the bottom layer: it talks to the API server and knows nothing of the layers above it.
    files: ['src/kube/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/snapshot/**', '**/plan/**', '**/drain/**', '**/run/**', '**/ui/**', '**/cli/**'],
              message: 'kube/ sits below every other layer.',
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
              group: ['**/plan/**', '**/drain/**', '**/run/**', '**/ui/**', '**/cli/**'],
              message: 'snapshot/ sits below plan/, drain/, run/, ui/ and cli/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Start-up: cli/ is loaded by every command, so it imports what talks to the cluster, the Ink views,
    // the YAML library and the bundled snapshots only with `await import()` where a command needs them
    // (type imports are free). `kubectl maint version`, `--help` and completion load none of them.
    files: ['src/cli/**'],
    rules: { '@typescript-eslint/no-restricted-imports': cliImports([]) },
  },
  {
    // What cordon and uncordon do, itself loaded with `await import()` by them alone: it takes their plain
    // requests (kube/rest.ts) with it, one round of loading files instead of two.
    files: ['src/cli/cordon-nodes.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': cliImports(['!**/kube/rest.js']) },
  },
  {
    // What runs and run --abandon do, itself loaded with `await import()` by them alone.
    files: ['src/cli/runs-action.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': cliImports(['!**/kube/run-api.js']) },
  },
  {
    // What plan, drain, demo and run do once their flags are parsed, loaded with `await import()` by their
    // actions: they plan.
    files: [
      'src/cli/plan-action.ts',
      'src/cli/drain-action.ts',
      'src/cli/run-action.ts',
      'src/cli/plan-input.ts',
      'src/cli/pool-plan.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': cliImports(['!**/plan/build-plan.js', '!**/plan/pool-plan.js']),
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

/** The start-up rule of src/cli/ (see its block above), with `allowed` exceptions (`!` patterns). */
function cliImports(allowed) {
  return [
    'error',
    {
      patterns: [
        {
          group: [
            '**/kube/*',
            '!**/kube/defaults.js',
            // The cordon's node calls: a few lines over an injected client, importing nothing.
            '!**/kube/cordon.js',
            // The planner, and with it the CEL engine of its DRA selectors.
            '**/plan/build-plan*',
            '**/plan/pool-plan*',
            ...allowed,
            '**/snapshot/load-*',
            '**/snapshot/embedded*',
            '**/drain/engine*',
            '**/ui/plan-output*',
            '**/ui/*-view*',
            // Text laid out to a width loads string-width and wrap-ansi.
            '**/ui/text-wrap*',
            '**/ui/plan-text*',
            '**/ui/pool-plan-text*',
            '**/ui/proceed-question*',
            '@kubernetes/client-node',
            'ink',
            'react',
            'yaml',
            'ora',
            'execa',
          ],
          allowTypeImports: true,
          message: 'load it with `await import()` in the command that needs it (start-up: see eslint.config.js).',
        },
      ],
    },
  ];
}
