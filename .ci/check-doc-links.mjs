#!/usr/bin/env node
/**
 * Every relative link in README.md, CONTRIBUTING.md and docs/*.md resolves: the file or folder exists,
 * and a #anchor names a heading of the target Markdown file, slugged as GitHub (and npm) slug them.
 * Links inside code blocks and code spans are not links; absolute URLs are not checked here
 * (check-links.mjs checks the product's own).
 *
 *   node .ci/check-doc-links.mjs [file.md ...]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const files =
	process.argv.length > 2
		? process.argv.slice(2).map((file) => resolve(file))
		: [
				join(root, 'README.md'),
				join(root, 'CONTRIBUTING.md'),
				...readdirSync(join(root, 'docs'))
					.filter((name) => name.endsWith('.md'))
					.sort()
					.map((name) => join(root, 'docs', name)),
			].filter((file) => existsSync(file));

/** The text with fenced code blocks and code spans blanked out (line numbers kept). */
function withoutCode(text) {
	return text
		.replace(/^([ \t]*)(```|~~~)[^\n]*\n[\s\S]*?^\1\2[^\n]*$/gm, (block) =>
			block.replace(/[^\n]/g, ' '),
		)
		.replace(/(`+)[^`\n]*?\1/g, (span) => ' '.repeat(span.length));
}

/** GitHub's heading ids (github-slugger): lower case, punctuation and symbols dropped, spaces to "-", repeats numbered. */
function anchorsOf(file) {
	const text = readFileSync(file, 'utf8');
	const ids = new Set();
	const seen = new Map();
	const code = withoutCode(text).split('\n');
	text.split('\n').forEach((line, index) => {
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (heading && code[index].trim()) {
			const plain = heading[1]
				.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
				.replace(/<[^>]+>/g, '')
				.replace(/[`*]/g, '');
			const base = plain
				.toLowerCase()
				.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
				.replace(/ /g, '-');
			const count = seen.get(base) ?? 0;
			seen.set(base, count + 1);
			ids.add(count ? `${base}-${count}` : base);
		}
		for (const match of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) ids.add(match[1]);
	});
	return ids;
}

const problems = [];
let count = 0;
let anchored = 0;
for (const file of files) {
	const where = relative(root, file);
	const lines = withoutCode(readFileSync(file, 'utf8')).split('\n');
	lines.forEach((line, index) => {
		const targets = [
			...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
			...[...line.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/g)].map(
				(match) => match[1],
			),
		];
		for (const target of targets) {
			if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
			count++;
			const [path, anchor] = target.split('#', 2);
			const resolved = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
			const at = `${where}:${index + 1}: ${target}`;
			if (!resolved.startsWith(root)) {
				problems.push(`${at}: points outside the repository`);
				continue;
			}
			if (!existsSync(resolved)) {
				problems.push(`${at}: ${relative(root, resolved)} does not exist`);
				continue;
			}
			if (anchor === undefined) continue;
			anchored++;
			if (!resolved.endsWith('.md') || statSync(resolved).isDirectory()) {
				problems.push(`${at}: an anchor into a file that is not Markdown`);
			} else if (!anchorsOf(resolved).has(anchor)) {
				problems.push(`${at}: no heading "#${anchor}" in ${relative(root, resolved)}`);
			}
		}
	});
}

if (problems.length) {
	console.error(`docs links: ${problems.length} broken\n  ${problems.join('\n  ')}`);
	process.exit(1);
}
console.log(
	`docs links: ${count} relative links from ${files.map((file) => relative(root, file)).join(', ')}, all resolve (${anchored} with #anchors)`,
);
