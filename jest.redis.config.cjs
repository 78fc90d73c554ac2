// The cuckoo-wasm/redis suites (tests/redis): the built package in dist/
// against real redis-server processes the tests start themselves (standalone
// and a 3-master cluster), one file at a time to keep the servers few.
// Needs `npm run build` and redis-server (scripts/setup installs it).
// Run: npx jest -c jest.redis.config.cjs --runInBand
module.exports = {
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/tests/jest-setup.cjs'],
  roots: ['<rootDir>/tests/redis'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tests/redis/tsconfig.json' }] },
  moduleNameMapper: {
    '^cuckoo-wasm$': '<rootDir>/dist/cjs/index.node.js',
    '^cuckoo-wasm/inspect$': '<rootDir>/dist/cjs/inspect.node.js',
    '^cuckoo-wasm/redis$': '<rootDir>/dist/cjs/redis/index.js',
  },
  maxWorkers: 1,
  testTimeout: 300000,
};
