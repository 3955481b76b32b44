#!/usr/bin/env node
/**
 * Size limits of the product code (nodes/ and credentials/, the .ts sources): no file over 300 lines, no
 * function over 80 (CONTRIBUTING.md). Lines are counted as the editor numbers them, first to last line
 * of the file or the function (its signature and closing brace included); every kind of function counts
 * on its own (declarations, methods, accessors, constructors, function expressions, arrow functions), an
 * inner function inside its outer one too. Prints both maxima and every offender, and exits 1 when there
 * is one (0 with --report-only, for a branch where the splits are not merged yet).
 *
 *   node .ci/check-sizes.mjs [--report-only] [--root DIR]   (DIR: another tree, for the check's own test)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import ts from 'typescript';

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;
const rootAt = process.argv.indexOf('--root');
const root = resolve(
	rootAt > 0 ? process.argv[rootAt + 1] : new URL('..', import.meta.url).pathname,
);
const reportOnly = process.argv.includes('--report-only');

function sourceFiles(dir) {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
	});
}

/** A function's name as a reader would look for it: its own, its variable's or its property's. */
function functionName(node) {
	if (node.name && ts.isIdentifier(node.name)) return node.name.text;
	if (ts.isConstructorDeclaration(node)) return 'constructor';
	const parent = node.parent;
	if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
		if (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name)) return parent.name.text;
	}
	return '(anonymous)';
}

function functionsOf(source) {
	const found = [];
	const visit = (node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			found.push({ name: functionName(node), line: first + 1, lines: last - first + 1 });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

const files = [];
const functions = [];
const dirs = ['nodes', 'credentials'].filter((dir) => existsSync(join(root, dir)));
for (const path of dirs.flatMap((dir) => sourceFiles(join(root, dir))).sort()) {
	const text = readFileSync(path, 'utf8');
	const file = relative(root, path);
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	// The editor's line count: a final newline does not start another line.
	files.push({ file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) });
	for (const fn of functionsOf(source)) functions.push({ file, ...fn });
}

const byLines = (a, b) => b.lines - a.lines;
files.sort(byLines);
functions.sort(byLines);
if (files.length === 0 || functions.length === 0) {
	console.log(`sizes: no product files or functions under ${root}`);
	process.exit(1);
}
const largest = files[0];
const longest = functions[0];
console.log(
	`sizes: ${files.length} product files, ${functions.length} functions; ` +
		`largest file ${largest.file} ${largest.lines} lines (limit ${MAX_FILE_LINES}); ` +
		`longest function ${longest.name} at ${longest.file}:${longest.line} ${longest.lines} lines (limit ${MAX_FUNCTION_LINES})`,
);
const bigFiles = files.filter((entry) => entry.lines > MAX_FILE_LINES);
const longFunctions = functions.filter((entry) => entry.lines > MAX_FUNCTION_LINES);
for (const entry of bigFiles) {
	console.log(`  file over ${MAX_FILE_LINES} lines: ${entry.file} ${entry.lines}`);
}
for (const entry of longFunctions) {
	console.log(
		`  function over ${MAX_FUNCTION_LINES} lines: ${entry.name} at ${entry.file}:${entry.line} ${entry.lines}`,
	);
}
const offenders = bigFiles.length + longFunctions.length;
if (offenders === 0) {
	console.log('sizes: within the limits');
} else {
	console.log(
		`sizes: ${bigFiles.length} file(s) and ${longFunctions.length} function(s) over the limits` +
			(reportOnly ? ' (report only)' : ''),
	);
	if (!reportOnly) process.exit(1);
}
