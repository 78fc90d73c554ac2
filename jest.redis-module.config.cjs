// The cuckoo-wasm/redis suites again, on servers started with the cuckoo
// module (bindings/redis-module), so that every RedisCuckooFilter uses it,
// and the module's own suites (tests/redis-module): its commands as any
// client sends them, replication to a server without it, byte identity with
// the scripts. Needs `npm run build` and `npm run build:redis-module`.
// Run: npx jest -c jest.redis-module.config.cjs --runInBand
const base = require('./jest.redis.config.cjs');

module.exports = {
  ...base,
  roots: ['<rootDir>/tests/redis', '<rootDir>/tests/redis-module'],
  setupFiles: [...base.setupFiles, '<rootDir>/tests/redis-module/support/on-module.cjs'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tests/redis-module/tsconfig.json' }] },
};
