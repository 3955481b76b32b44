#!/usr/bin/env node
/**
 * Runs n8n's official community-package analyzer (@n8n/scan-community-package) offline, on what we
 * would publish: `npm pack` (whose prepack script builds dist/) into a temporary folder, unpacked, and
 * the source files the analyzer's provenance leg lints (package.json, nodes/, credentials/).
 * Prints one line per leg and the tarball's file list; exits 1 on any violation.
 *
 *   node .ci/scan-package.mjs [--keep-tarball <dir>]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);
const args = process.argv.slice(2);
const keepDir = args.includes('--keep-tarball')
	? resolve(args[args.indexOf('--keep-tarball') + 1])
	: undefined;
const work = mkdtempSync(join(tmpdir(), 'n8n-scan-'));
let failed = false;

try {
	// --ignore-scripts=false: whatever the caller's npm config says, packing runs prepack, which builds dist/.
	execFileSync('npm', ['pack', '--ignore-scripts=false', '--pack-destination', work], {
		cwd: root,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
	if (!tarball) throw new Error('npm pack made no tarball');
	if (keepDir) copyFileSync(join(work, tarball), join(keepDir, tarball));
	const unpacked = join(work, 'package');
	execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
	const files = execFileSync('find', ['.', '-type', 'f'], { cwd: unpacked, encoding: 'utf8' })
		.trim()
		.split('\n')
		.sort();
	console.log(`packed ${tarball}: ${files.length} files`);
	for (const file of files) console.log(`  ${file}`);
	for (const required of [
		'./package.json',
		'./dist/nodes/IntegrationService/IntegrationService.node.js',
		'./dist/credentials/IntegrationServiceApi.credentials.js',
	]) {
		if (!files.includes(required)) {
			console.log(`scan: the tarball lacks ${required}`);
			failed = true;
		}
	}

	// The analyzer's two legs: compiled JS and package.json from the tarball, the sources it would fetch by provenance.
	for (const [label, dir, patterns] of [
		['packed tarball', unpacked, ['**/*.js', '**/*.json']],
		['source (package.json, nodes/, credentials/)', root, SOURCE_FILE_PATTERNS],
	]) {
		const result = await analyzePackage(dir, patterns);
		if (result.passed) {
			console.log(`scan: @n8n/scan-community-package analyzer clean on the ${label}`);
		} else {
			failed = true;
			console.log(
				`scan: @n8n/scan-community-package analyzer FAILED on the ${label}: ${result.message}`,
			);
			if (result.details) console.log(result.details);
		}
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
