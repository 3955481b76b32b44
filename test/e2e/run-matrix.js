#!/usr/bin/env node
'use strict';
/**
 * The compatibility matrix in the real n8n application (`npm run test:e2e:matrix`): run-e2e.js once per
 * n8n version of versions.js, each installed in its own cache folder with the Node it needs; 2.41.1 runs
 * the whole e2e, every other version its core (the package loaded with its Tool variant, the credential
 * test, every example against the sandbox, the trigger's delivery and dedup). Prints one table row per
 * version: n8n, Node, run, result, checks passed and failed, seconds.
 *
 *   node test/e2e/run-matrix.js                          every version
 *   node test/e2e/run-matrix.js --version 1.123.81       one (repeat it, or a comma list, for several)
 *   options: --core (2.41.1 too runs only the core), --retry (a failed row runs once more, as CI does
 *   for the editor's timing), --json <file> (the rows as JSON), --markdown <file> (the table),
 *   --until <unix seconds> (a version that would not finish by then is skipped and says so: CI's time on
 *   a machine without the installs); other options (--no-editor, --keep) go to run-e2e.js
 *
 * Exit: 0 no row failed (and one passed), 1 a row failed, 2 every row skipped (no install could be made).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { DEFAULT_VERSION, VERSIONS, pinsFor } = require('./versions');
const { isInstalled, paths } = require('./install-n8n');

function parseArgs(argv) {
	const opt = { versions: [], core: false, retry: false, pass: [] };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--version') opt.versions.push(...String(argv[++i] || '').split(','));
		else if (a === '--core') opt.core = true;
		else if (a === '--retry') opt.retry = true;
		else if (a === '--json') opt.json = argv[++i];
		else if (a === '--markdown') opt.markdown = argv[++i];
		else if (a === '--until') opt.until = Number(argv[++i]) * 1000;
		else opt.pass.push(a);
	}
	const listed = opt.versions.filter(Boolean);
	opt.versions = listed.length ? listed : Object.keys(VERSIONS);
	return opt;
}

/** Numeric order of x.y.z versions, oldest first. */
function byVersion(a, b) {
	const pa = a.split('.').map(Number);
	const pb = b.split('.').map(Number);
	return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
}

/** One run of run-e2e.js for `version`; resolves its result file (or what its exit code says). */
function runOne(version, opt) {
	const core = opt.core || version !== DEFAULT_VERSION;
	const resultFile = path.join(os.tmpdir(), `n8n-e2e-matrix-${process.pid}-${version}.json`);
	fs.rmSync(resultFile, { force: true });
	const args = [path.join(__dirname, 'run-e2e.js'), '--n8n', version, ...(core ? ['--core'] : [])];
	console.log(`\n==== n8n ${version} (${core ? 'core' : 'full'}): node ${args.slice(1).join(' ')}`);
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [...args, ...opt.pass], {
			stdio: 'inherit',
			env: { ...process.env, E2E_RESULT_FILE: resultFile },
		});
		child.on('close', (code) => {
			let result;
			try {
				result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
			} catch {
				result = { status: code === 2 ? 'skipped' : 'failed', passed: 0, failed: 0 };
				result.reason = `run-e2e.js exited ${code} without a result`;
			}
			fs.rmSync(resultFile, { force: true });
			resolve({ version, core, node: pinsFor(version).node, ...result, exit: code });
		});
	});
}

function table(rows) {
	const head = ['n8n', 'Node', 'run', 'result', 'checks passed', 'checks failed', 'seconds'];
	const lines = rows.map((r) => [
		r.version,
		r.node,
		r.core ? 'core' : 'full',
		`${r.status}${r.retried ? ' (after one retry)' : ''}${r.reason ? `: ${r.reason}` : ''}`,
		String(r.passed),
		String(r.failed),
		String(r.seconds ?? ''),
	]);
	const width = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
	const row = (cells) => `| ${cells.map((c, i) => c.padEnd(width[i])).join(' | ')} |`;
	return [row(head), row(width.map((w) => '-'.repeat(w))), ...lines.map(row)].join('\n');
}

/** Minutes a row may take: its run, and its install when the cache does not hold it yet. */
function expectedMinutes(version, core) {
	return (core ? 15 : 25) + (isInstalled(paths(version)) ? 0 : 15);
}

async function main() {
	const opt = parseArgs(process.argv.slice(2));
	const rows = [];
	// 2.41.1 first (the whole e2e), then the others oldest first; the table is in version order.
	const order = [...opt.versions].sort(
		(a, b) => (b === DEFAULT_VERSION) - (a === DEFAULT_VERSION) || byVersion(a, b),
	);
	for (const version of order) {
		const core = opt.core || version !== DEFAULT_VERSION;
		const minutes = expectedMinutes(version, core);
		if (opt.until && Date.now() + minutes * 60000 > opt.until) {
			const reason = `not started: it may take ${minutes} min and the time budget (--until) ends sooner`;
			console.log(`\n==== n8n ${version}: ${reason}`);
			const node = pinsFor(version).node;
			rows.push({ version, core, node, status: 'skipped', reason, passed: 0, failed: 0 });
			continue;
		}
		let r = await runOne(version, opt);
		if (r.status === 'failed' && opt.retry) {
			console.log(`n8n ${version} failed once; running it again to tell a defect from a hiccup`);
			const again = await runOne(version, opt);
			r = again.status === 'passed' ? { ...again, retried: true } : again;
		}
		rows.push(r);
	}
	rows.sort((a, b) => byVersion(a.version, b.version));
	const text = table(rows);
	console.log(`\n==== e2e matrix ====\n${text}`);
	if (opt.markdown) fs.writeFileSync(opt.markdown, `${text}\n`);
	if (opt.json) fs.writeFileSync(opt.json, JSON.stringify(rows, null, 2));
	const count = (s) => rows.filter((r) => r.status === s).length;
	console.log(
		`e2e matrix: rows passed ${count('passed')}, failed ${count('failed')}, skipped ${count('skipped')}`,
	);
	if (count('failed')) process.exit(1);
	process.exit(count('passed') ? 0 : 2);
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
