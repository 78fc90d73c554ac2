// Every server the suites start loads the cuckoo module (tests/redis/support/servers.ts reads this).
process.env.CUCKOO_REDIS_ENGINE = 'module';
