'use strict';
/** What install-n8n.js needs to run installs: its skip reason, a logged child process, a lock. */
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

/** The install cannot be made here; its message is a one-line reason. */
class SkipError extends Error {}

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

module.exports = { SkipError, run, lastLine, withLock };
