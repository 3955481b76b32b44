/**
 * Tests run through n8n's real engine against the sandbox server over real HTTP on 127.0.0.1. No test
 * here may depend on the machine's speed: the soak and chaos runs, which must use real time, are
 * jest.soak.config.js (`npm run test:soak`).
 */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: [
		'/node_modules/',
		'/test/e2e/',
		'/test/chaos/',
		'/test/reliability/soak\\.test\\.ts$',
	],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }] },
	setupFiles: ['<rootDir>/test/harness/setup-env.ts'],
	globalSetup: '<rootDir>/test/harness/user-folder.js',
	globalTeardown: '<rootDir>/test/harness/user-folder-teardown.js',
	// A guard against a hang, not a bound: a property test on a loaded 2-core machine takes minutes. A
	// test whose bound is time states it (the Timeout, Retry-After or pause it would otherwise wait) and sets
	// its own timeout above that.
	testTimeout: 600_000,
	// fault-injection.test.ts runs its real-time waits side by side, each on its own sandbox.
	maxConcurrency: 16,
	// Two suites at a time, even on two cores: most suites spend their time waiting on real clocks
	// (retry delays, deadlines, the per-second cap), so a second worker overlaps those waits.
	maxWorkers: 2,
};
