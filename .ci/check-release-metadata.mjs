#!/usr/bin/env node
/**
 * The repository rule of the release workflow, checked on temporary copies of package.json:
 * .ci/release-metadata.mjs sets repository and bugs when absent, keeps them when they name the
 * workflow's repository, and refuses (exit 1, file untouched) when they name another one.
 * Also: package.json in git names no repository (the release workflow does).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const script = join(root, '.ci/release-metadata.mjs');
const original = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const env = {
	...process.env,
	GITHUB_SERVER_URL: 'https://github.com',
	GITHUB_REPOSITORY: 'Owner-A/n8n-nodes-integration-service',
};
const expected = {
	repository: {
		type: 'git',
		url: 'git+https://github.com/Owner-A/n8n-nodes-integration-service.git',
	},
	bugs: { url: 'https://github.com/Owner-A/n8n-nodes-integration-service/issues' },
};
const work = mkdtempSync(join(tmpdir(), 'release-metadata-'));
const failures = [];

function run(name, fields, expectation, runEnv = env) {
	const file = join(work, `${name.replace(/\W+/g, '-')}.json`);
	const pkg = { ...original, ...fields };
	for (const [key, value] of Object.entries(fields)) if (value === undefined) delete pkg[key];
	const before = `${JSON.stringify(pkg, null, 2)}\n`;
	writeFileSync(file, before);
	let status = 0;
	let output = '';
	try {
		output = execFileSync('node', [script, file], {
			env: runEnv,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
	} catch (error) {
		status = error.status;
		output = `${error.stdout}${error.stderr}`;
	}
	const after = JSON.parse(readFileSync(file, 'utf8'));
	if (expectation === 'refused') {
		if (status !== 1) failures.push(`${name}: expected exit 1, got ${status}`);
		if (!/release metadata: .*nothing was changed/.test(output))
			failures.push(`${name}: no clear message: ${output.trim()}`);
		if (readFileSync(file, 'utf8') !== before)
			failures.push(`${name}: package.json was changed although refused`);
		return;
	}
	if (status !== 0) failures.push(`${name}: expected exit 0, got ${status}: ${output.trim()}`);
	for (const key of ['repository', 'bugs']) {
		if (JSON.stringify(after[key]) !== JSON.stringify(expected[key])) {
			failures.push(
				`${name}: ${key} is ${JSON.stringify(after[key])}, expected ${JSON.stringify(expected[key])}`,
			);
		}
	}
	if (after.homepage !== original.homepage)
		failures.push(`${name}: homepage changed to ${after.homepage}`);
	const keys = Object.keys(after);
	if (keys.indexOf('repository') !== keys.indexOf('homepage') + 1)
		failures.push(`${name}: repository is not right after homepage`);
	for (const key of Object.keys(original)) {
		if (
			!['repository', 'bugs'].includes(key) &&
			JSON.stringify(after[key]) !== JSON.stringify(original[key])
		) {
			failures.push(`${name}: ${key} changed`);
		}
	}
}

const cases = [
	[
		'in git: no repository named',
		() => {
			for (const key of ['repository', 'bugs'])
				if (key in original)
					failures.push(`package.json in git names "${key}"; the release workflow sets it`);
		},
	],
	['absent: set', () => run('absent', { repository: undefined, bugs: undefined }, 'set')],
	[
		'agree (git+https, other case): kept',
		() =>
			run(
				'agree',
				{
					repository: {
						type: 'git',
						url: 'git+https://github.com/owner-a/n8n-nodes-integration-service.git',
					},
				},
				'set',
			),
	],
	[
		'agree (shorthand and bugs): kept',
		() =>
			run(
				'agree-shorthand',
				{
					repository: 'github:Owner-A/n8n-nodes-integration-service',
					bugs: 'https://github.com/Owner-A/n8n-nodes-integration-service/issues',
				},
				'set',
			),
	],
	[
		'disagree (another owner): refused',
		() =>
			run(
				'disagree-owner',
				{
					repository: {
						type: 'git',
						url: 'git+https://github.com/owner-b/n8n-nodes-integration-service.git',
					},
				},
				'refused',
			),
	],
	[
		'disagree (another name): refused',
		() =>
			run('disagree-name', { repository: 'https://github.com/Owner-A/other-package' }, 'refused'),
	],
	[
		'disagree (another host): refused',
		() =>
			run(
				'disagree-host',
				{ repository: 'git+https://gitlab.com/Owner-A/n8n-nodes-integration-service.git' },
				'refused',
			),
	],
	[
		'disagree (bugs elsewhere): refused',
		() =>
			run(
				'disagree-bugs',
				{ bugs: { url: 'https://github.com/owner-b/n8n-nodes-integration-service/issues' } },
				'refused',
			),
	],
	[
		'outside a workflow: refused',
		() =>
			run('no-env', {}, 'refused', {
				...process.env,
				GITHUB_SERVER_URL: '',
				GITHUB_REPOSITORY: '',
			}),
	],
];

try {
	for (const [, check] of cases) check();
} finally {
	rmSync(work, { recursive: true, force: true });
}
if (failures.length) {
	console.error(`repository rule: ${failures.length} failure(s)\n  ${failures.join('\n  ')}`);
	process.exit(1);
}
console.log(
	`repository rule: ${cases.length} cases hold (${cases.map(([name]) => name).join('; ')})`,
);
