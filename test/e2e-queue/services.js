'use strict';
/**
 * Redis and Postgres for the queue-mode run, from Debian packages: installed with apt-get when
 * missing, each started on a free 127.0.0.1 port with its data in a temporary folder, and stopped
 * (the folder removed by the caller) at the end. Plain Node, no dependencies.
 */
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const L = require('../e2e/lib');

class SkipError extends Error {}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function which(cmd) {
	const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
	return r.status === 0 ? r.stdout.trim() : undefined;
}

function redisBin() {
	return (
		which('redis-server') ||
		(fs.existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : undefined)
	);
}

/** Debian keeps the server binaries in /usr/lib/postgresql/<major>/bin; the newest major wins. */
function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return undefined;
	const majors = fs
		.readdirSync(root)
		.filter(
			(d) =>
				/^\d+$/.test(d) &&
				fs.existsSync(path.join(root, d, 'bin', 'postgres')) &&
				fs.existsSync(path.join(root, d, 'bin', 'initdb')),
		)
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(root, majors[0], 'bin') : undefined;
}

/** Installs redis-server and postgresql with apt-get when missing; throws SkipError when that cannot be done. */
function ensurePackages(log) {
	const missing = [];
	if (!redisBin()) missing.push('redis-server');
	if (!postgresBinDir()) missing.push('postgresql');
	if (missing.length === 0) return;
	if (!which('apt-get'))
		throw new SkipError(
			`${missing.join(' and ')} missing and apt-get is not available to install them`,
		);
	const sudo = isRoot()
		? []
		: spawnSync('sudo', ['-n', 'true']).status === 0
			? ['sudo', '-n']
			: undefined;
	if (!sudo)
		throw new SkipError(
			`${missing.join(' and ')} missing; installing them needs root (or passwordless sudo)`,
		);
	const run = (args) => {
		log(`$ ${[...sudo, ...args].join(' ')}`);
		const [cmd, ...rest] = [...sudo, ...args];
		const r = spawnSync(cmd, rest, {
			encoding: 'utf8',
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
			maxBuffer: 64 * 1024 * 1024,
		});
		if (r.status !== 0)
			throw new SkipError(
				`${args.slice(0, 2).join(' ')} failed (exit ${r.status}): ${(r.stderr || r.stdout || '').trim().split('\n').slice(-1)[0]}`,
			);
	};
	run(['apt-get', 'update', '-qq']);
	run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing]);
	if (!redisBin() || !postgresBinDir())
		throw new SkipError(`apt-get installed ${missing.join(', ')} but the binaries were not found`);
}

function versionOf(cmd, args) {
	const r = spawnSync(cmd, args, { encoding: 'utf8' });
	return (r.stdout || r.stderr || '').trim().split('\n')[0];
}

/** The uid/gid to run Postgres as: Postgres refuses to run as root, so root hands it to the "postgres" user. */
function postgresUser() {
	if (!isRoot()) return {};
	const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
	const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
	if (!Number.isInteger(uid) || uid <= 0)
		throw new SkipError('running as root and there is no "postgres" user to run Postgres as');
	return { uid, gid };
}

/** Answers once `PING` gets `+PONG`. */
async function waitForRedis(port, child, timeoutMs = 30000) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
		const ok = await new Promise((resolve) => {
			const s = net.connect(port, '127.0.0.1');
			let got = '';
			s.setTimeout(2000, () => (s.destroy(), resolve(false)));
			s.on('error', () => resolve(false));
			s.on('connect', () => s.write('PING\r\n'));
			s.on('data', (d) => {
				got += d;
				if (got.includes('\r\n')) {
					s.end();
					resolve(got.startsWith('+PONG'));
				}
			});
		});
		if (ok) return;
		await L.sleep(300);
	}
	throw new Error(`redis-server did not answer PING on port ${port} within ${timeoutMs / 1000} s`);
}

async function startRedis(dir, children, log) {
	const port = await L.freePort();
	fs.mkdirSync(dir, { recursive: true });
	const bin = redisBin();
	// No persistence, no other interface: a throwaway queue.
	const child = spawn(
		bin,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--dir',
			dir,
			'--save',
			'',
			'--appendonly',
			'no',
			'--protected-mode',
			'yes',
			'--daemonize',
			'no',
			'--loglevel',
			'warning',
		],
		{
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		},
	);
	let out = '';
	child.stdout.on('data', (d) => (out += d));
	child.stderr.on('data', (d) => (out += d));
	children.push({ name: 'redis', child, signal: 'SIGTERM' });
	try {
		await waitForRedis(port, child);
	} catch (e) {
		throw new Error(`${e.message}\n${out.slice(-1500)}`);
	}
	const version = versionOf(bin, ['--version']);
	log(`redis started on 127.0.0.1:${port} (${version})`);
	return { port, version, child };
}

async function startPostgres(dir, children, log, pgLib) {
	const bin = postgresBinDir();
	const owner = postgresUser();
	const dataDir = path.join(dir, 'data');
	const socketDir = path.join(dir, 'socket');
	fs.mkdirSync(socketDir, { recursive: true });
	if (owner.uid !== undefined) {
		fs.chownSync(dir, owner.uid, owner.gid);
		fs.chownSync(socketDir, owner.uid, owner.gid);
	}
	const asOwner = { ...owner, cwd: dir, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } };
	const init = spawnSync(
		path.join(bin, 'initdb'),
		['-D', dataDir, '-U', 'n8n', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
		{ ...asOwner, encoding: 'utf8' },
	);
	if (init.status !== 0)
		throw new Error(
			`initdb failed (exit ${init.status}): ${(init.stderr || init.stdout || String(init.error)).trim().slice(-1500)}`,
		);
	const port = await L.freePort();
	// Durability is irrelevant for a throwaway database; small buffers keep the shared machine free.
	const child = spawn(
		path.join(bin, 'postgres'),
		[
			'-D',
			dataDir,
			'-p',
			String(port),
			'-k',
			socketDir,
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'shared_buffers=32MB',
			'-c',
			'max_connections=50',
		],
		{ ...asOwner, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
	);
	let out = '';
	child.stdout.on('data', (d) => (out += d));
	child.stderr.on('data', (d) => (out += d));
	// SIGINT is Postgres's "fast shutdown".
	children.push({ name: 'postgres', child, signal: 'SIGINT' });
	const deadline = Date.now() + 60000;
	let last;
	for (;;) {
		if (child.exitCode !== null)
			throw new Error(`postgres exited with code ${child.exitCode}\n${out.slice(-1500)}`);
		const c = new pgLib.Client({ host: '127.0.0.1', port, user: 'n8n', database: 'postgres' });
		try {
			await c.connect();
			await c.query('CREATE DATABASE n8n');
			await c.end();
			break;
		} catch (e) {
			last = e.message;
			try {
				await c.end();
			} catch {}
			if (Date.now() > deadline)
				throw new Error(
					`postgres did not accept connections on port ${port}: ${last}\n${out.slice(-1500)}`,
				);
			await L.sleep(300);
		}
	}
	const version = versionOf(path.join(bin, 'postgres'), ['--version']);
	log(`postgres started on 127.0.0.1:${port} (${version}; data in ${dataDir})`);
	return { port, version, child, database: 'n8n', user: 'n8n', password: 'n8n' };
}

module.exports = { SkipError, ensurePackages, startRedis, startPostgres, isRoot };
