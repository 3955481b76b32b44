/**
 * The fast unit layer: ts-jest straight on the TypeScript sources of the pure modules (URL and header
 * rules, error classification and redaction, paging against a fake context, the field mapper, the
 * trigger's delivery checks). No build, no sandbox, no n8n engine. The engine and e2e suites stay the
 * truth layer; the main jest.config.js picks these tests up as well.
 *
 * Transpile-only: tsconfig.dev.json sets isolatedModules, which ts-jest 29.4 takes as its cue to
 * transpile without type checking (its own `isolatedModules` option is deprecated). Type errors are
 * reported by `npx tsc -p tsconfig.dev.json --noEmit`.
 */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/unit'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }] },
	// n8n-workflow's errors, utils and interfaces from their own files (test/unit/n8n-workflow.js).
	moduleNameMapper: { '^n8n-workflow$': '<rootDir>/test/unit/n8n-workflow.js' },
	// A guard against a hang, not a bound (jest's 5 s default fails property tests on a loaded machine).
	testTimeout: 600_000,
	// Both cores: jest's default on two cores is a single worker.
	maxWorkers: 2,
};
