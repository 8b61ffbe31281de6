/**
 * Client unit tests (jest 29 + jsdom + @testing-library/react 16), TOOLCHAIN "Unit tests", second setup:
 * `@tarojs/components` → its React build, `@tarojs/taro` → taro-h5 plus the React lifecycle hooks.
 * Babel runs with its own config (__tests__/setup/babel-transform.js) so the Taro build preset does not
 * leak into tests.
 */
const path = require('path')

// ESM packages that Taro's H5 runtime and NutUI pull in: transform them, leave the rest alone.
const esmPackages = [
  '@tarojs',
  '@stencil',
  '@nutui',
  'lodash-es',
  'query-string',
  'decode-uri-component',
  'split-on-first',
  'filter-obj',
  'swiper',
  'ssr-window',
  'dom7',
  'style-inject',
  'tslib',
  '\\.pnpm',
].join('|')

/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  cacheDirectory: path.join(__dirname, 'node_modules/.cache/jest'),
  // every core: jest's default leaves one free (cores − 1), which on a 2-core machine is one worker
  // and twice the time (1,373 tests: 88 s with two, about 180 s with one)
  maxWorkers: '100%',
  testEnvironment: 'jsdom',
  testEnvironmentOptions: {
    url: 'http://localhost/',
    customExportConditions: ['node', 'node-addons'],
  },
  testMatch: ['<rootDir>/__tests__/**/*.test.{ts,tsx}'],
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/e2e/',
    '<rootDir>/server/',
    '<rootDir>/dist/',
  ],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'json'],
  transform: {
    // its own file: options written here are copied to worker processes as JSON, which drops the
    // NutUI import plugin's customName function (tests then failed with …/lib/<name> not found)
    '^.+\\.(mjs|cjs|js|jsx|ts|tsx)$': '<rootDir>/__tests__/setup/babel-transform.js',
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages})/)`],
  moduleNameMapper: {
    '^@tarojs/taro$': '<rootDir>/__tests__/setup/taro-shim.ts',
    '^@tarojs/components$': '@tarojs/components/lib/react',
    '\\.(css|scss|sass|less)$': '<rootDir>/__tests__/setup/style-stub.js',
    '\\.(png|jpe?g|gif|svg|webp)$': '<rootDir>/__tests__/setup/file-stub.js',
    '^@/(.*)$': '<rootDir>/src/$1',
  },
  setupFiles: ['<rootDir>/__tests__/setup/env.ts'],
  setupFilesAfterEnv: ['<rootDir>/__tests__/setup/after-env.ts'],
  globals: {
    ENABLE_INNER_HTML: true,
    ENABLE_ADJACENT_HTML: true,
    ENABLE_SIZE_APIS: true,
    DEPRECATED_ADAPTER_COMPONENT: false,
    ENABLE_TEMPLATE_CONTENT: true,
    ENABLE_MUTATION_OBSERVER: true,
    ENABLE_CLONE_NODE: true,
    ENABLE_CONTAINS: true,
    __TARO_FRAMEWORK__: 'react',
  },
}
