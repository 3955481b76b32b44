#!/usr/bin/env node
/**
 * Names, in package.json, the repository that builds and publishes the package: the release workflow
 * runs this right before `npm publish --provenance`, so the published package.json names the
 * repository its provenance statement names (npm refuses a provenance whose repository does not match).
 *
 *   repository  git+${GITHUB_SERVER_URL}/${GITHUB_REPOSITORY}.git
 *   bugs        ${GITHUB_SERVER_URL}/${GITHUB_REPOSITORY}/issues
 *   homepage    kept (the package's npm page, see docs/decisions.md "Links and publishing")
 *
 * A field that is absent is set; one that already names this repository is kept (written in the
 * canonical form); one that names any other repository is refused: exit 1, package.json untouched.
 *
 *   node .ci/release-metadata.mjs [path/to/package.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const file = resolve(process.argv[2] ?? new URL('../package.json', import.meta.url).pathname);
const server = process.env.GITHUB_SERVER_URL?.replace(/\/+$/, '');
const slug = process.env.GITHUB_REPOSITORY;

function refuse(message) {
	console.error(`release metadata: ${message}`);
	process.exit(1);
}

if (!server || !/^https?:\/\/[^/\s]+$/.test(server) || !slug || !/^[\w.-]+\/[\w.-]+$/.test(slug)) {
	refuse(
		'GITHUB_SERVER_URL and GITHUB_REPOSITORY must name the repository this runs in ' +
			'(GitHub Actions sets both); nothing was changed',
	);
}

const repoUrl = `${server}/${slug}`;
const wanted = {
	repository: { type: 'git', url: `git+${repoUrl}.git` },
	bugs: { url: `${repoUrl}/issues` },
};

/**
 * The repository a URL names, as "host/owner/name" in lower case (GitHub names are case-insensitive),
 * or undefined when it names none. Accepts npm's forms: git+https://, git://, ssh://git@, git@host:,
 * "github:owner/name" and the bare "owner/name" shorthand.
 */
function repositoryOf(value) {
	if (typeof value !== 'string' || !value.trim()) return undefined;
	let text = value.trim();
	const shorthand = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(text);
	if (shorthand) text = `https://github.com/${shorthand[1]}`;
	text = text.replace(/^git\+/, '').replace(/^git@([^:/]+):/, 'ssh://git@$1/');
	let url;
	try {
		url = new URL(text);
	} catch {
		return `unparsable:${value}`;
	}
	const [owner, name] = url.pathname.split('/').filter(Boolean);
	if (!owner || !name) return `${url.host}/${url.pathname}`.toLowerCase();
	return `${url.host}/${owner}/${name.replace(/\.git$/, '')}`.toLowerCase();
}

const ours = repositoryOf(repoUrl);
const text = readFileSync(file, 'utf8');
const pkg = JSON.parse(text);
const urlOf = (value) => (typeof value === 'string' ? value : value?.url);

const actions = [];
for (const field of ['repository', 'bugs']) {
	const current = urlOf(pkg[field]);
	if (current === undefined) {
		actions.push(`${field} set to ${wanted[field].url}`);
	} else if (repositoryOf(current) !== ours) {
		refuse(
			`package.json names ${field} ${JSON.stringify(current)}, but this workflow runs in ${repoUrl}: ` +
				'publishing would attach a provenance statement to the wrong repository. Correct or remove ' +
				`"${field}" in package.json; nothing was changed`,
		);
	} else {
		actions.push(`${field} ${wanted[field].url} (already named)`);
	}
}
// The homepage may be any page the publisher controls; it must not name another repository.
const home = repositoryOf(pkg.homepage);
if (home && pkg.homepage.startsWith(`${server}/`) && home !== ours) {
	refuse(
		`package.json's homepage ${pkg.homepage} is another repository than ${repoUrl}; nothing was changed`,
	);
}
actions.push(`homepage ${pkg.homepage} kept`);

// Insert after "homepage" (or at the end), keeping every other field in its place.
const out = {};
for (const [key, value] of Object.entries(pkg)) {
	if (key === 'repository' || key === 'bugs') continue;
	out[key] = value;
	if (key === 'homepage') Object.assign(out, wanted);
}
if (!('repository' in out)) Object.assign(out, wanted);
const indent = /^(\s+)"/m.exec(text)?.[1] ?? '  ';
writeFileSync(file, `${JSON.stringify(out, null, indent)}\n`);
console.log(`release metadata: ${actions.join('; ')}`);
