/**
 * ESLint 8 (legacy config) for the whole repo: TypeScript via @typescript-eslint (syntax rules only,
 * no type-aware rules, so a full run stays fast), React + hooks for the Taro client, Node for the server,
 * scripts and end-to-end tests. Formatting is Prettier's job (`prettier --check` in `npm run lint`).
 */
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
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: [
              {
                name: '@tarojs/components',
                importNames: ['Checkbox', 'CheckboxGroup', 'Icon', 'Radio', 'RadioGroup'],
                message:
                  "Use NutUI's: the H5 build drops the WeUI icon font Taro's draw with (config/h5-loaders/drop-weui-icons.js).",
              },
            ],
          },
        ],
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
      // Plain JavaScript: CommonJS config files may use require().
      files: ['**/*.js', '**/*.cjs'],
      rules: {
        '@typescript-eslint/no-var-requires': 'off',
        '@typescript-eslint/no-require-imports': 'off',
      },
    },
    {
      files: ['__tests__/**/*.{ts,tsx}', '**/*.test.{ts,tsx}', '**/*.spec.{ts,tsx}'],
      env: { jest: true, node: true },
      rules: { '@typescript-eslint/no-explicit-any': 'off' },
    },
  ],
}
