/**
 * The locators' list search at scale: 200,000 people behind 20 ms of latency, the sandbox in its own
 * process. Each call is counted in requests (the sandbox's log) and timed: the first results (no words
 * typed), a name that is there, and words that match nobody, followed by one more call with the token
 * handed back. Prints one JSON line per call and a summary. Run once: `npm run bench:search`.
 */
import { performance } from 'perf_hooks';

import { searchList } from '../test/harness/list-search';
import { sandboxCredential } from '../test/sandbox/credential';
import type { SandboxInfo } from './common';
import { control } from './common';
import { startSandboxProcess } from './sandboxProcess';

const PEOPLE = 200_000;
const LATENCY_MS = 20;
const BOUND = { requests: 5, ms: 2_000 };

/** How many requests the sandbox has logged (its control endpoints are not logged). */
async function requestsSoFar(info: SandboxInfo): Promise<number> {
	const log = await control<unknown[]>(info, 'GET', '/__sandbox/requests');
	return Array.isArray(log) ? log.length : 0;
}

async function main(): Promise<void> {
	const sandbox = await startSandboxProcess({ latencyMs: LATENCY_MS, people: PEOPLE, port: 0 });
	const credentials = sandboxCredential(sandbox.info);
	const calls: Array<{ what: string; filter?: string; token?: string }> = [
		{ what: 'first results (nothing typed)' },
		{ what: 'a name that is there', filter: 'zoe jon' },
		{ what: 'words that match nobody', filter: 'nobody-at-all' },
	];
	const rows = [];
	try {
		for (const call of [...calls, { ...calls[2], what: 'the same, with the token handed back' }]) {
			const token = call.what.startsWith('the same') ? rows[rows.length - 1]?.token : undefined;
			const before = await requestsSoFar(sandbox.info);
			const started = performance.now();
			const found = await searchList({
				method: 'searchPerson',
				credentials,
				filter: call.filter,
				paginationToken: token,
			});
			const ms = Math.round(performance.now() - started);
			const requests = (await requestsSoFar(sandbox.info)) - before;
			const row = {
				what: call.what,
				ms,
				requests,
				results: found.results.length,
				token: found.paginationToken,
			};
			rows.push(row);
			process.stdout.write(`${JSON.stringify({ ...row, token: row.token ? 'yes' : 'none' })}\n`);
		}
	} finally {
		await sandbox.stop();
	}
	const worst = {
		requests: Math.max(...rows.map((r) => r.requests)),
		ms: Math.max(...rows.map((r) => r.ms)),
	};
	const tokens = rows.every((r) => typeof r.token === 'string');
	const ok = worst.requests <= BOUND.requests && worst.ms <= BOUND.ms && tokens;
	process.stdout.write(
		`${JSON.stringify({ people: PEOPLE, latencyMs: LATENCY_MS, worst, everyCallHasAToken: tokens, ok })}\n`,
	);
	if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
	process.stderr.write(`bench:search failed: ${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
