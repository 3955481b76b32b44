/**
 * The real-time runs, apart from `npm test` (`npm run test:soak`; CI runs it too): the 1,000-item soak
 * and the chaos suites. They must use real time (real sockets, 1 s Timeouts, backoffs and pauses
 * through n8n's engine), so their bounds (an attempt let go within its Timeout plus a margin, a run
 * within its budget) and their length depend on the machine. One suite at a time, with generous jest
 * timeouts: run them on a machine that is not busy with anything else.
 */
const base = require('./jest.config.js');

module.exports = {
	...base,
	testMatch: ['<rootDir>/test/chaos/**/*.test.ts', '<rootDir>/test/reliability/soak.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	testTimeout: 600_000,
	maxWorkers: 1,
};
