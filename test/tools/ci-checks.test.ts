/**
 * The two CI checks of issue 29 on trees and copies made for the test: .ci/check-sizes.mjs (no product
 * file over 300 lines, no function over 80, both maxima printed) and .ci/docs-operations.mjs --check
 * (docs/operations.md's generated tables are the built node's; needs `npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..');

function run(script: string, ...args: string[]): { status: number | null; output: string } {
	const result = spawnSync(process.execPath, [join(repo, '.ci', script), ...args], {
		encoding: 'utf8',
	});
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A file of `fileLines` lines holding one function of `functionLines` lines. */
function source(fileLines: number, functionLines: number): string {
	const body = Array.from({ length: functionLines - 2 }, (_, i) => `\tconst v${i} = ${i};`);
	const fn = ['export function long(): void {', ...body, '}'];
	const filler = Array.from(
		{ length: fileLines - fn.length },
		(_, i) => `export const c${i} = ${i};`,
	);
	return [...fn, ...filler].join('\n') + '\n';
}

describe('.ci/check-sizes.mjs', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'mapper-sizes-'));
		mkdirSync(join(dir, 'nodes'));
		mkdirSync(join(dir, 'credentials'));
		writeFileSync(join(dir, 'credentials', 'small.ts'), 'export const a = 1;\n');
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('passes at the limits and prints the largest file and the longest function', () => {
		writeFileSync(join(dir, 'nodes', 'big.ts'), source(300, 80));
		const { status, output } = run('check-sizes.mjs', '--root', dir);
		expect(output).toContain('largest file nodes/big.ts 300 lines (limit 300)');
		expect(output).toContain('longest function long at nodes/big.ts:1 80 lines (limit 80)');
		expect(output).toContain('sizes: within the limits');
		expect(status).toBe(0);
	});

	it('fails one line over either limit and names every offender', () => {
		writeFileSync(join(dir, 'nodes', 'big.ts'), source(301, 81));
		writeFileSync(
			join(dir, 'credentials', 'arrow.ts'),
			`export const arrow = (): void => {\n${'\tvoid 0;\n'.repeat(80)}};\n`,
		);
		const { status, output } = run('check-sizes.mjs', '--root', dir);
		expect(output).toContain('file over 300 lines: nodes/big.ts 301');
		expect(output).toContain('function over 80 lines: long at nodes/big.ts:1 81');
		expect(output).toContain('function over 80 lines: arrow at credentials/arrow.ts:1 82');
		expect(output).toContain('sizes: 1 file(s) and 2 function(s) over the limits');
		expect(status).toBe(1);
		expect(run('check-sizes.mjs', '--root', dir, '--report-only').status).toBe(0);
	});
});

describe('.ci/docs-operations.mjs', () => {
	let dir: string;
	let doc: string;
	const original = readFileSync(join(repo, 'docs', 'operations.md'), 'utf8');
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'mapper-docs-'));
		doc = join(dir, 'operations.md');
		writeFileSync(doc, original);
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('accepts the committed document', () => {
		const { status, output } = run('docs-operations.mjs', '--check', '--doc', doc);
		expect(output).toContain("the parameter tables match the node's description");
		expect(status).toBe(0);
	});

	it('fails on a stale table, and the rewrite restores the document exactly', () => {
		writeFileSync(doc, original.replace('| `personId`', '| `personID`'));
		const stale = run('docs-operations.mjs', '--check', '--doc', doc);
		expect(stale.output).toContain('stale; run npm run docs:operations');
		expect(stale.status).toBe(1);
		expect(run('docs-operations.mjs', '--doc', doc).status).toBe(0);
		expect(readFileSync(doc, 'utf8')).toBe(original);
	});

	it('fails when an operation has no block, or a block names no operation', () => {
		writeFileSync(
			doc,
			original.replace(
				'generated:begin parameters webhook.update',
				'generated:begin parameters webhook.delete',
			),
		);
		const { status, output } = run('docs-operations.mjs', '--check', '--doc', doc);
		expect(output).toContain('a block names "parameters webhook.delete"');
		expect(output).toContain('no block for "parameters webhook.update"');
		expect(status).toBe(1);
	});

	it("adds a new operation's block at the end, under its own heading", () => {
		const start = original.indexOf('<!-- generated:begin parameters webhook.update -->');
		const end = original.indexOf('<!-- generated:end -->', start) + '<!-- generated:end -->'.length;
		writeFileSync(doc, original.slice(0, start) + original.slice(end));
		expect(run('docs-operations.mjs', '--doc', doc).status).toBe(0);
		const rewritten = readFileSync(doc, 'utf8');
		// After the heading, and after any block already waiting there for its section.
		const heading = rewritten.indexOf('\n## Operations without a section yet\n\n###');
		const block = rewritten.indexOf(
			'\n### Calendar Webhook › Update\n\n<!-- generated:begin parameters webhook.update -->',
		);
		expect(heading).toBeGreaterThan(0);
		expect(block).toBeGreaterThan(heading);
		expect(rewritten.indexOf('<!-- generated:begin', block + 1)).toBe(
			rewritten.indexOf('<!-- generated:begin parameters webhook.update -->'),
		);
		expect(rewritten.indexOf('<!-- generated:end -->', block)).toBe(
			rewritten.lastIndexOf('<!-- generated:end -->'),
		);
		expect(run('docs-operations.mjs', '--check', '--doc', doc).status).toBe(0);
	});
});
