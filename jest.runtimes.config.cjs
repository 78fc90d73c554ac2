// The package where JavaScript runs (tests/runtimes): the packed tarball,
// installed once into a fresh temporary project by the global setup, loaded
// by Node (ES modules, CommonJS, worker_threads), Bun, Deno, TypeScript's
// three module resolutions, four bundlers in Chromium, a Web Worker, a page
// under a strict Content-Security-Policy, a Manifest V3 extension, Cloudflare's
// workerd, and the download-size budget. Needs the package built (dist/) and
// /usr/bin/chromium. Run: npx jest -c jest.runtimes.config.cjs
module.exports = {
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/tests/jest-setup.cjs'],
  roots: ['<rootDir>/tests/runtimes'],
  testMatch: ['**/*.test.ts'],
  globalSetup: '<rootDir>/tests/runtimes/support/global-setup.ts',
  globalTeardown: '<rootDir>/tests/runtimes/support/global-teardown.ts',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tests/runtimes/tsconfig.json' }] },
  testTimeout: 180000,
};
