// Browser end-to-end tests (tests/e2e): the built package in dist/ loaded by
// headless Chromium, directly as ES modules and through a Vite build of an
// installed tarball. Needs `npm run build` first and /usr/bin/chromium.
// Run: npx jest -c jest.e2e.config.cjs
module.exports = {
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/tests/jest-setup.cjs'],
  roots: ['<rootDir>/tests/e2e'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tests/e2e/tsconfig.json' }] },
  testTimeout: 180000,
};
