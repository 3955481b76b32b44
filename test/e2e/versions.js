'use strict';
/**
 * The n8n versions the package is tested on: the compatibility matrix (README's Compatibility table,
 * `npm run test:e2e:matrix`). Plain data, read by install-n8n.js, run-e2e.js and run-matrix.js.
 */

/** The version every real-app test runs on (the full e2e, the queue mode, the editor's screenshots). */
const DEFAULT_VERSION = '2.41.1';

const PINS = Object.freeze({
	n8n: DEFAULT_VERSION, // 2.41.3 cannot be installed (a missing @n8n/agents version)
	node: '24.21.0', // n8n 2.41.x needs Node >= 24
	'playwright-core': '1.65.1',
	linkedom: '0.18.14', // override: newer linkedom breaks n8n's install
	markerVersion: 1,
});

/**
 * The compatibility matrix (README's Compatibility table, `npm run test:e2e:matrix`): each n8n version
 * with the Node it runs on (within its `engines`, the major of n8n's own Docker image) and the npm
 * `overrides` its install needs here. 1.x names xlsx as a tarball on a CDN this machine cannot reach: the
 * registry's 0.18.5 is what npm installs instead. Not in the matrix, and why: docs/development.md.
 */
const VERSIONS = Object.freeze({
	[DEFAULT_VERSION]: PINS,
	'2.16.1': Object.freeze({
		n8n: '2.16.1', // the newest 2.x before 2.18 that installs here (2.17.7 misses @n8n/ai-node-sdk@0.8.0)
		node: '22.22.2', // engines >= 22.16
		xlsx: '0.18.5',
		linkedom: '0.18.14',
		// One zod for all of n8n: langchain's "^3.25.76 || ^4" hoists 3.25.76, and each n8n package then gets
		// its own copy of 3.25.67, whose schemas the others reject ("A discriminator value for key `__type`
		// could not be extracted"): n8n does not start.
		zod: '3.25.67',
		markerVersion: 1,
	}),
	'1.123.81': Object.freeze({
		n8n: '1.123.81', // the last 1.x
		node: '22.22.2', // engines >= 20.19 <= 24.x
		xlsx: '0.18.5',
		markerVersion: 1,
	}),
	'1.85.3': Object.freeze({
		n8n: '1.85.3', // the oldest the package loads on: NodeConnectionTypes (n8n-workflow 1.83) is there
		node: '22.22.2', // engines >= 18.17 <= 22
		xlsx: '0.18.5',
		markerVersion: 1,
	}),
});

/** Pins of one version: VERSIONS, or E2E_N8N_NODE (default Node 22) for a version tried outside the matrix. */
function pinsFor(version = DEFAULT_VERSION) {
	if (VERSIONS[version]) return VERSIONS[version];
	if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not an n8n version: ${version}`);
	return Object.freeze({
		n8n: version,
		node: process.env.E2E_N8N_NODE || '22.22.2',
		xlsx: '0.18.5',
		...(version.startsWith('1.') ? {} : { linkedom: '0.18.14' }),
		markerVersion: 1,
	});
}

/** The version named by `--n8n <version>` in argv, else 2.41.1. */
function versionArg(argv = process.argv.slice(2)) {
	const i = argv.indexOf('--n8n');
	return i >= 0 && argv[i + 1] ? argv[i + 1] : DEFAULT_VERSION;
}

module.exports = { DEFAULT_VERSION, PINS, VERSIONS, pinsFor, versionArg };
