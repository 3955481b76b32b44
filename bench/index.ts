/**
 * `npm run bench:index`: the people index of Person › Find and Create or Update over 200,000 people, in
 * n8n's real engine (n8n-core), the sandbox in its own process so this process's RSS is the node's.
 * One Find of an email nobody has reads the whole list once, at the default 50 requests per second.
 * Targets (issue 42): RSS growth ≤ 64 MiB (the index holds keys and IDs, never records) and wall time
 * ≤ 1.1 × the paced floor (pages ÷ 50 per second). Exit 1 when a target is missed.
 */
import { runNode } from '../test/harness/engine';
import { sandboxCredential } from '../test/sandbox/credential';
import type { SandboxInfo } from './common';
import { control } from './common';
import { startSandboxProcess } from './sandboxProcess';

const PEOPLE = 200_000;
const PAGE = 100;
const MAX_RPS = 50;
const MIB = 1024 * 1024;
const TARGETS = { rssGrowthMiB: 64, overFloor: 1.1 };

function credentialsOf(info: SandboxInfo) {
	return sandboxCredential({ ...info, defaultCredentialId: info.credentialId });
}

/** A Find through the whole list (nobody has the email), or of the first person (warm-up, one page). */
async function find(info: SandboxInfo, email: string) {
	const result = await runNode({
		parameters: { resource: 'person', operation: 'find', findBy: 'email', email },
		credentials: credentialsOf(info),
	});
	if (result.error) throw new Error(`Find failed: ${result.error.message}`);
	return result;
}

async function main(): Promise<void> {
	const sandbox = await startSandboxProcess({ latencyMs: 0, people: PEOPLE, port: 0 });
	try {
		const { info } = sandbox;
		// Loads n8n and the package, and warms the path of one page, outside the measured run.
		await find(info, 'warm-up@nowhere.test');
		await control(info, 'POST', '/__sandbox/reset');
		const gc = (globalThis as { gc?: () => void }).gc;
		gc?.();
		const baseline = process.memoryUsage().rss;
		let peak = baseline;
		const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
		const started = performance.now();
		await find(info, 'nobody@nowhere.test');
		const wallMs = performance.now() - started;
		clearInterval(sampler);
		peak = Math.max(peak, process.memoryUsage().rss);
		const log = await control<unknown[] | { requests: unknown[] }>(
			info,
			'GET',
			'/__sandbox/requests',
		);
		const requests = Array.isArray(log) ? log.length : log.requests.length;
		const floorMs = (requests / MAX_RPS) * 1000;
		const growthMiB = (peak - baseline) / MIB;
		const overFloor = wallMs / floorMs;
		console.log(
			[
				`People index of ${PEOPLE} people (one Find through the whole list, default pace ${MAX_RPS} requests/s):`,
				`  requests ${requests} (pages of ${PAGE}; expected ${PEOPLE / PAGE})`,
				`  wall time ${(wallMs / 1000).toFixed(1)} s; paced floor ${requests} ÷ ${MAX_RPS}/s = ${(floorMs / 1000).toFixed(1)} s; ratio ${overFloor.toFixed(3)} (target ≤ ${TARGETS.overFloor})`,
				`  RSS growth ${growthMiB.toFixed(1)} MiB (baseline ${(baseline / MIB).toFixed(0)} MiB, peak ${(peak / MIB).toFixed(0)} MiB; target ≤ ${TARGETS.rssGrowthMiB} MiB)`,
			].join('\n'),
		);
		const missed =
			requests !== PEOPLE / PAGE ||
			overFloor > TARGETS.overFloor ||
			growthMiB > TARGETS.rssGrowthMiB;
		if (missed) {
			console.log('bench:index: a target was missed');
			process.exitCode = 1;
		}
	} finally {
		await sandbox.stop();
	}
}

void main();
