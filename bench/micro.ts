/**
 * A minute-long, in-process look at our per-request overhead over the floor (bench/floor): Person ›
 * Create over N items and Person › Get Many of every person, each run through n8n's engine (the test
 * harness's `runNode`) against a sandbox in its own process, our node and the floor node alternating.
 * It reports this process's CPU time and the wall time per run (medians and ranges) and their ratios
 * to the floor. Not the benchmark (`npm run bench` runs the real n8n app): a quick before/after check.
 *
 *   npm run build && npm run build:tools && node build/bench/micro.js [rounds] [items] [people]
 */
import { performance } from 'perf_hooks';

import { registerNodeType, runNode } from '../test/harness/engine';
import { sandboxCredential } from '../test/sandbox/credential';
import { BenchFloor } from './floor/BenchFloor.node';
import { PROBE_TYPE, transportProbe } from './probe';
import { startSandboxProcess } from './sandboxProcess';

const FLOOR_TYPE = 'benchFloor';

interface Sample {
	cpuMs: number;
	wallMs: number;
}

async function measure(run: () => Promise<number>, expected: number): Promise<Sample> {
	const cpu = process.cpuUsage();
	const start = performance.now();
	const count = await run();
	const wallMs = performance.now() - start;
	const used = process.cpuUsage(cpu);
	if (count < expected) throw new Error(`expected ${expected} items, got ${count}`);
	return { cpuMs: (used.user + used.system) / 1000, wallMs };
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function line(label: string, values: number[]): string {
	// Medians and ranges of one contender's runs.
	const fixed = (value: number) => value.toFixed(1);
	return `${label.padEnd(34)} median ${fixed(median(values)).padStart(8)}  range ${fixed(Math.min(...values))}–${fixed(Math.max(...values))}`;
}

async function main(): Promise<void> {
	const [rounds = 9, items = 400, people = 5000] = process.argv.slice(2).map(Number);
	registerNodeType(new BenchFloor());
	registerNodeType(transportProbe);
	const sandbox = await startSandboxProcess({
		latencyMs: 0,
		people,
		port: Number(process.env.MICRO_PORT ?? 0),
	});
	const credentials = sandboxCredential({
		...sandbox.info,
		defaultCredentialId: sandbox.info.credentialId,
	});
	const input = Array.from({ length: items }, (_, i) => ({
		firstName: `Ada${i}`,
		lastName: 'Bench',
	}));
	const names = { firstName: '={{ $json.firstName }}', lastName: '={{ $json.lastName }}' };
	const ok = async (result: Awaited<ReturnType<typeof runNode>>) => {
		if (result.error) throw new Error(result.error.message);
		return result.items.length;
	};
	const contenders = {
		'create ours': async () =>
			await ok(
				await runNode({
					credentials,
					items: input,
					parameters: {
						resource: 'person',
						operation: 'create',
						...names,
						requestOptions: { concurrency: 8, maxRequestsPerSecond: 0 },
					},
				}),
			),
		'create floor': async () =>
			await ok(
				await runNode({
					credentials,
					items: input,
					nodeType: FLOOR_TYPE,
					parameters: { operation: 'create', ...names, concurrency: 8 },
				}),
			),
		'list ours': async () =>
			await ok(
				await runNode({
					credentials,
					parameters: {
						resource: 'person',
						operation: 'getAll',
						returnAll: true,
						simplify: false,
						requestOptions: { maxRequestsPerSecond: 0 },
					},
				}),
			),
		'list floor': async () =>
			await ok(
				await runNode({ credentials, nodeType: FLOOR_TYPE, parameters: { operation: 'list' } }),
			),
	};
	// MICRO_ONLY=<name> runs one contender (for `node --cpu-prof`).
	const only = process.env.MICRO_ONLY;
	const chosen = Object.entries(contenders).filter(
		([name]) => process.env.MICRO_NODE !== undefined && (!only || name === only),
	);
	// The transport alone, this build's against the floor's bare call and, with MICRO_BEFORE (another
	// build's dist/nodes/IntegrationService/transport), that build's.
	const probe =
		(list: boolean, transport: string, bare = false) =>
		async () =>
			await ok(
				await runNode({
					credentials,
					nodeType: PROBE_TYPE,
					parameters: { list, transport, bare, count: items },
				}),
			);
	const before = process.env.MICRO_BEFORE;
	for (const list of [false, true]) {
		const kind = list ? 'probe list' : 'probe create';
		if (before) chosen.push([`${kind} before`, probe(list, before)]);
		chosen.push([`${kind} ours`, probe(list, '')], [`${kind} floor`, probe(list, '', true)]);
	}
	if (only) chosen.splice(0, chosen.length, ...chosen.filter(([name]) => name === only));
	const samples: Record<string, Sample[]> = {};
	// A list holds the seeded people and those created so far.
	const expected = (name: string) => (name.includes('list') ? people : items);
	try {
		// One warm-up round, unmeasured: the JIT and the sandbox's connections.
		for (const [name, run] of chosen) await measure(run, expected(name));
		for (let round = 0; round < rounds; round++) {
			for (const [name, run] of chosen) {
				(samples[name] ??= []).push(await measure(run, expected(name)));
			}
		}
	} finally {
		await sandbox.stop();
	}
	const report: string[] = [`${rounds} rounds, ${items} creates, ${people} people listed`];
	for (const [name, list] of Object.entries(samples)) {
		report.push(
			line(
				`${name} cpu ms`,
				list.map((s) => s.cpuMs),
			),
		);
		report.push(
			line(
				`${name} wall ms`,
				list.map((s) => s.wallMs),
			),
		);
	}
	// Ratios to the floor measured in the same round.
	for (const kind of ['create', 'list', 'probe create', 'probe list']) {
		const floor = samples[`${kind} floor`];
		for (const which of ['before', 'ours']) {
			const ours = samples[`${kind} ${which}`];
			if (!ours || !floor) continue;
			for (const key of ['cpuMs', 'wallMs'] as const) {
				const ratios = ours.map((s, i) => s[key] / floor[i][key]);
				report.push(
					`${`${kind} ${which} ÷ floor ${key === 'cpuMs' ? 'cpu' : 'wall'}`.padEnd(34)} median ${median(ratios).toFixed(3)}  range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`,
				);
			}
		}
	}
	console.log(report.join('\n'));
}

void main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
