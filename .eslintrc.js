/**
 * ESLint 8 (legacy config) for the whole repo: TypeScript via @typescript-eslint (syntax rules only,
 * no type-aware rules, so a full run stays fast), React + hooks for the Taro client, Node for the server,
 * scripts and end-to-end tests. Formatting is Prettier's job (`prettier --check` in `npm run lint`).
 */
const fs = require('node:fs')
const path = require('node:path')

// ---- Layers (docs/architecture.md) ------------------------------------------------------
// client: pages → components · hooks → stores → api → runtime → domain / platform / constants; no page
// folder imports another's modules. server: routes / plugins / jobs → services → domain / db / adapters /
// contract, with the job queue (job-queue.ts) and the clock (clock.ts) below services.
// These rules catch the `@/…` and relative imports as you type; `depcruise` (.dependency-cruiser.cjs,
// in `npm run lint`) checks the whole graph, relative paths and circles included.

/** Taro's own form widgets draw with the WeUI font the H5 build drops: every client folder keeps this. */
const TARO_WIDGETS = {
  name: '@tarojs/components',
  importNames: ['Checkbox', 'CheckboxGroup', 'Icon', 'Radio', 'RadioGroup'],
  message:
    "Use NutUI's: the H5 build drops the WeUI icon font Taro's draw with (config/h5-loaders/drop-weui-icons.js).",
}

/** One no-restricted-imports rule: each forbidden group with the message saying where code belongs. */
const restrict = (patterns, paths = []) => ['error', { paths, patterns }]
const clientRestrict = (patterns) => restrict(patterns, [TARO_WIDGETS])

const NOT_PAGES = {
  group: ['@/pages/*', '../pages/*', '../../pages/*'],
  message:
    'Only pages import page modules: shared UI goes to src/components, shared rules to src/domain, app runtime to src/runtime.',
}
const NOT_COMPONENTS = {
  group: ['@/components/*', '../components/*', '@/hooks/*', '../hooks/*'],
  message:
    'Stores, the API modules, the runtime and the domain import no component or hook: pass UI callbacks in, or move the logic down (src/runtime, src/domain).',
}
const NOT_STORES = {
  group: ['@/stores', '@/stores/*', '../stores', '../stores/*'],
  message:
    'The API modules and the runtime import no store: the app wires stores to them (src/stores/create-app-stores.ts), not the other way.',
}
const NOT_API = {
  group: ['@/api', '@/api/*', '../api', '../api/*'],
  message:
    'The app runtime (src/runtime) is below the API modules (src/api): it knows no server area; pass what it needs in.',
}
const NOT_RUNTIME = {
  group: ['@/runtime/*', '../runtime/*'],
  message:
    'src/domain, src/platform and src/constants are the bottom layer: they import no runtime module.',
}
const NOT_UI_OR_PLATFORM = {
  group: [
    'react',
    'react-dom',
    'mobx',
    'mobx-react*',
    '@tarojs/*',
    '@nutui/*',
    '@/platform',
    '@/platform/*',
  ],
  message:
    'src/domain is plain TypeScript the server imports too (#domain/*): no UI framework, Taro or platform.',
}

/** Inside src/pages/<Folder>: no other page folder (each folder is its own WeChat sub-package). */
const pageFolders = fs
  .readdirSync(path.join(__dirname, 'src/pages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const pageFolderOverrides = pageFolders.map((folder) => ({
  files: [`src/pages/${folder}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': clientRestrict([
      {
        group: ['@/pages/*', `!@/pages/${folder}`],
        message: `src/pages/${folder} imports no other page folder's modules: move what both need to src/components, src/hooks, src/domain or src/runtime.`,
      },
    ]),
  },
}))

const SERVER_NOT_ABOVE_SERVICES = {
  group: ['**/routes/*', '**/plugins/*', '**/jobs/*'],
  message:
    'A service imports no route, plugin or job handler (they call services); services add jobs through job-queue.ts.',
}
const SERVER_NOT_SERVICES = {
  group: ['**/services/*'],
  message:
    'server/src/domain, db, adapters and contract are below services: pass what they need in (the clock is server/src/clock.ts).',
}
const SERVER_CONFIG_AT_THE_BOTTOM = {
  group: ['./*', './**'],
  message:
    'server/src/config.ts imports nothing of the server (every layer reads it): a default lives in its SERVER_DEFAULTS, not in the module that uses it.',
}
const SERVER_ONLY_SHARED = {
  group: ['**/scripts/*', '**/scripts/**', '../../src/*', '../../../src/*', '../../../../src/*'],
  message:
    'The server imports the shared rules as #domain/* and #constants/*, names shared with the build from shared/, and nothing else outside server/src.',
}

module.exports = {
  root: true,
  parser: '@typescript-eslint/parser',
  parserOptions: {
    ecmaVersion: 2022,
    sourceType: 'module',
    ecmaFeatures: { jsx: true },
  },
  plugins: ['@typescript-eslint', 'react', 'react-hooks'],
  extends: [
    'eslint:recommended',
    'plugin:@typescript-eslint/recommended',
    'plugin:react/recommended',
    'plugin:react/jsx-runtime',
    'plugin:react-hooks/recommended',
  ],
  settings: {
    react: { version: '18.3' },
  },
  env: { es2022: true },
  ignorePatterns: [
    'node_modules/',
    'dist/',
    'coverage/',
    'data/',
    '.cache/',
    '.swc/',
    'server/src/db/migrations/',
  ],
  rules: {
    // TypeScript checks undefined names itself, and knows about globals such as `wx` from type declarations.
    'no-undef': 'off',
    'no-unused-vars': 'off',
    '@typescript-eslint/no-unused-vars': [
      'error',
      {
        argsIgnorePattern: '^_',
        varsIgnorePattern: '^_',
        caughtErrorsIgnorePattern: '^_',
        ignoreRestSiblings: true,
      },
    ],
    '@typescript-eslint/consistent-type-imports': [
      'error',
      { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
    ],
    '@typescript-eslint/no-explicit-any': 'warn',
    '@typescript-eslint/no-non-null-assertion': 'off',
    '@typescript-eslint/no-empty-function': 'off',
    // `declare global { var … }` and Taro's `declare const wx` need these.
    '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
    'no-var': 'error',
    'prefer-const': 'error',
    eqeqeq: ['error', 'always', { null: 'ignore' }],
    'no-console': 'off',
    'no-debugger': 'error',
    'no-duplicate-imports': 'off',
    'object-shorthand': ['error', 'properties'],
    // Types replace prop-types; Taro pages are function components named by their file.
    'react/prop-types': 'off',
    'react/display-name': 'off',
    'react/self-closing-comp': 'error',
    'react/jsx-key': ['error', { checkFragmentShorthand: true }],
    'react-hooks/rules-of-hooks': 'error',
    'react-hooks/exhaustive-deps': 'warn',
  },
  overrides: [
    {
      // The client: browser + mini-program globals.
      files: ['src/**/*.{ts,tsx}'],
      env: { browser: true },
      globals: { wx: 'readonly', getCurrentPages: 'readonly', getApp: 'readonly' },
      rules: { 'no-restricted-imports': clientRestrict([NOT_PAGES]) },
    },
    ...pageFolderOverrides,
    {
      files: ['src/components/**/*.{ts,tsx}', 'src/hooks/**/*.ts'],
      rules: { 'no-restricted-imports': clientRestrict([NOT_PAGES]) },
    },
    {
      files: ['src/stores/**/*.{ts,tsx}'],
      rules: { 'no-restricted-imports': clientRestrict([NOT_PAGES, NOT_COMPONENTS]) },
    },
    {
      files: ['src/api/**/*.{ts,tsx}'],
      rules: { 'no-restricted-imports': clientRestrict([NOT_PAGES, NOT_COMPONENTS, NOT_STORES]) },
    },
    {
      files: ['src/runtime/**/*.{ts,tsx}'],
      rules: {
        'no-restricted-imports': clientRestrict([NOT_PAGES, NOT_COMPONENTS, NOT_STORES, NOT_API]),
      },
    },
    {
      files: ['src/platform/**/*.ts', 'src/constants/**/*.ts'],
      rules: {
        'no-restricted-imports': clientRestrict([
          NOT_PAGES,
          NOT_COMPONENTS,
          NOT_STORES,
          NOT_API,
          NOT_RUNTIME,
        ]),
      },
    },
    {
      files: ['src/domain/**/*.ts'],
      rules: {
        'no-restricted-imports': clientRestrict([
          NOT_PAGES,
          NOT_COMPONENTS,
          NOT_STORES,
          NOT_API,
          NOT_RUNTIME,
          NOT_UI_OR_PLATFORM,
        ]),
      },
    },
    {
      // Server, build scripts, benchmarks, config files and end-to-end tests run on Node.
      files: [
        'server/**/*.ts',
        'scripts/**/*.{js,mjs,ts}',
        'bench/**/*.{js,mjs,ts}',
        'e2e/**/*.ts',
        'config/**/*.ts',
        '*.config.{js,ts,mjs,cjs}',
        '.eslintrc.js',
        'babel.config.js',
        'jest.config.js',
      ],
      env: { node: true },
    },
    {
      files: ['server/src/**/*.ts'],
      rules: { 'no-restricted-imports': restrict([SERVER_ONLY_SHARED]) },
    },
    {
      files: ['server/src/config.ts'],
      rules: {
        'no-restricted-imports': restrict([SERVER_ONLY_SHARED, SERVER_CONFIG_AT_THE_BOTTOM]),
      },
    },
    {
      files: ['server/src/services/**/*.ts'],
      rules: {
        'no-restricted-imports': restrict([SERVER_ONLY_SHARED, SERVER_NOT_ABOVE_SERVICES]),
        // A method that may run in a transaction takes its query layer as a required parameter: a
        // default of this.ctx.db would silently open a second connection (PGlite: wait for ever).
        'no-restricted-syntax': [
          'error',
          {
            selector: "AssignmentPattern[right.type='MemberExpression'][right.property.name='db']",
            message:
              'Take db/tx as a required parameter (callers outside a transaction pass ctx.db): see ServiceContext.db.',
          },
        ],
      },
    },
    {
      files: [
        'server/src/domain/**/*.ts',
        'server/src/db/**/*.ts',
        'server/src/adapters/**/*.ts',
        'server/src/contract/**/*.ts',
        'server/src/job-queue.ts',
        'server/src/clock.ts',
      ],
      rules: {
        'no-restricted-imports': restrict([
          SERVER_ONLY_SHARED,
          SERVER_NOT_ABOVE_SERVICES,
          SERVER_NOT_SERVICES,
        ]),
      },
    },
    {
      // The operator console (admin/, built by Vite for browsers): the shared rules through #domain/* and
      // #constants/*, the server's contract as types only, nothing else of the client or the server.
      files: ['admin/**/*.{ts,tsx,mts}'],
      env: { browser: true },
      rules: {
        'no-restricted-imports': 'off',
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['@/*', '**/src/**', '!**/server/src/**'],
                message:
                  'The console imports the shared rules as #domain/* and #constants/*, nothing else of the client.',
              },
              {
                group: ['**/server/**'],
                allowTypeImports: true,
                message:
                  "The console imports the server's contract as types only (import type): nothing of the server is bundled.",
              },
            ],
          },
        ],
      },
    },
    {
      files: ['admin/vite.config.mts'],
      env: { node: true },
    },
    {
      // Plain JavaScript: CommonJS config files may use require().
      files: ['**/*.js', '**/*.cjs'],
      rules: {
        '@typescript-eslint/no-var-requires': 'off',
        '@typescript-eslint/no-require-imports': 'off',
      },
    },
    {
      // Client tests run in Jest (server/test runs on Node, above). Every rule holds for tests too,
      // no-explicit-any included: a test reads answers through typed helpers or `unknown`.
      files: ['__tests__/**/*.{ts,tsx}'],
      env: { jest: true, node: true },
    },
  ],
}
