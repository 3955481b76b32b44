/** Starts the sandbox (build/test/sandbox/cli.js) in its own process and reads its `--json` line. */
import { spawn } from 'child_process';
import { join } from 'path';

import type { SandboxInfo } from './common';

export interface SandboxProcess {
	info: SandboxInfo;
	stop(): Promise<void>;
}

export interface SandboxProcessOptions {
	latencyMs: number;
	people: number;
	port: number;
}

export function startSandboxProcess(options: SandboxProcessOptions): Promise<SandboxProcess> {
	const cli = join(__dirname, '..', 'test', 'sandbox', 'cli.js');
	const child = spawn(
		process.execPath,
		[
			cli,
			'--port',
			String(options.port),
			'--people',
			String(options.people),
			'--latency',
			String(options.latencyMs),
			'--json',
		],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let stderr = '';
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (text: string) => {
		stderr += text;
	});
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const stop = async (): Promise<void> => {
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
		await exited;
	};

	return new Promise((resolve, reject) => {
		let buffered = '';
		let settled = false;
		const timer = setTimeout(
			() => fail(new Error('the sandbox did not print its URLs within 60 s')),
			60_000,
		);
		function fail(error: Error): void {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			void stop();
			reject(error);
		}
		child.once('exit', (code) =>
			fail(new Error(`the sandbox exited (code ${code}) before it was ready: ${stderr.trim()}`)),
		);
		child.stdout.setEncoding('utf8');
		child.stdout.on('data', (text: string) => {
			if (settled) return;
			buffered += text;
			for (const line of buffered.split('\n').slice(0, -1)) {
				let parsed:
					| { urls?: SandboxInfo['urls']; token?: string; credentialId?: string }
					| undefined;
				try {
					parsed = JSON.parse(line) as typeof parsed;
				} catch {
					parsed = undefined;
				}
				if (parsed?.urls?.crm && parsed.token && parsed.credentialId) {
					settled = true;
					clearTimeout(timer);
					resolve({
						info: { urls: parsed.urls, token: parsed.token, credentialId: parsed.credentialId },
						stop,
					});
					return;
				}
			}
		});
	});
}
