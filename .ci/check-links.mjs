#!/usr/bin/env node
/**
 * Every link the product shows a user (the editor's Docs button, the credential form's docs link,
 * package.json's homepage) must point where this package's publisher is in control: package.json's
 * "homepage" is the one place that says where, and the docs links must start with it.
 * "repository" and "bugs" are absent in git; the release workflow sets them from its own repository
 * (.ci/release-metadata.mjs) and runs this check again before publishing: then the repository must be
 * a real repository URL and bugs must belong to it.
 * Fails on a mismatch and on placeholders (example hosts, unowned GitHub organisations, TODOs).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const home = pkg.homepage;
const PLACEHOLDERS = [
	/example\.(com|org|net|test)/i,
	/github\.com\/integration-service\b/i,
	/\bTODO\b/,
	/your[-_]?(org|name|company)/i,
	/localhost|127\.0\.0\.1/,
];
const problems = [];
const links = [];

const files = (dir) =>
	readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? files(path) : [path];
	});

if (typeof home !== 'string' || !/^https:\/\//.test(home))
	problems.push('package.json: "homepage" must be an https:// URL');
links.push(['package.json homepage', home]);
const urlOf = (value) => (typeof value === 'string' ? value : value?.url);
const repository = urlOf(pkg.repository);
const bugs = urlOf(pkg.bugs);
// git+https://host/owner/name.git, as the release workflow writes it, or the same without git+ and .git.
const repositoryWeb =
	repository &&
	/^(?:git\+)?(https:\/\/[^/\s]+\/[\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(repository)?.[1];
if (repository !== undefined) {
	if (!repositoryWeb)
		problems.push(
			`package.json repository: ${repository} is not a repository URL (git+https://host/owner/name.git)`,
		);
	if (PLACEHOLDERS.some((pattern) => pattern.test(repository)))
		problems.push(`package.json repository: placeholder link ${repository}`);
}
if (bugs !== undefined) {
	if (PLACEHOLDERS.some((pattern) => pattern.test(bugs)))
		problems.push(`package.json bugs: placeholder link ${bugs}`);
	else if (!repositoryWeb || !bugs.startsWith(`${repositoryWeb}/`))
		problems.push(
			`package.json bugs: ${bugs} is not under the repository ${repository ?? '(none named)'}`,
		);
}
if (!pkg.author?.email) problems.push('package.json: "author" needs an email');

for (const file of [...files(join(root, 'nodes')), ...files(join(root, 'credentials'))]) {
	const text = readFileSync(file, 'utf8');
	const where = relative(root, file);
	if (file.endsWith('.node.json')) {
		const codex = JSON.parse(text);
		for (const list of Object.values(codex.resources ?? {}))
			for (const { url } of list) links.push([`${where} resources`, url]);
	}
	for (const match of text.matchAll(/documentationUrl\s*[:=]\s*['"`]([^'"`]+)['"`]/g))
		links.push([`${where} documentationUrl`, match[1]]);
}

for (const [where, url] of links) {
	if (PLACEHOLDERS.some((pattern) => pattern.test(url ?? '')))
		problems.push(`${where}: placeholder link ${url}`);
	else if (!String(url).startsWith(home))
		problems.push(`${where}: ${url} is not under the package's homepage ${home}`);
}

if (problems.length) {
	console.error(`links: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
	process.exit(1);
}
const named =
	repository === undefined
		? 'no repository named (the release workflow names it)'
		: `repository ${repository}, bugs ${bugs ?? 'not named'}`;
console.log(`links: ${links.length} product links checked, all under ${home}; ${named}`);
