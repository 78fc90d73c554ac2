// Jest runs the TypeScript suites in tests/ts against the built package in
// dist/ (what users get), so `npm run build` must run first; `npm test` does.
module.exports = {
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/tests/jest-setup.cjs'],
  roots: ['<rootDir>/tests/ts'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tests/ts/tsconfig.json' }] },
  moduleNameMapper: {
    '^cuckoo-wasm$': '<rootDir>/dist/cjs/index.node.js',
    '^cuckoo-wasm/inspect$': '<rootDir>/dist/cjs/inspect.node.js',
    '^cuckoo-wasm/bloom$': '<rootDir>/dist/cjs/bloom.node.js',
    '^cuckoo-wasm/patch$': '<rootDir>/dist/cjs/patch.node.js',
  },
  testTimeout: 120000,
};
