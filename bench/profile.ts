/**
 * Where the n8n application's CPU goes: sums a V8 CPU profile of the n8n process (--cpu-prof) over
 * time windows (one per measured branch), by who spends it. A sample counts for expressions or for
 * loading the credential when either is anywhere on its stack (whoever called them); otherwise for
 * the package of the innermost function that has a source file.
 */
import { readFileSync } from 'fs';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string };
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	samples: number[];
	timeDeltas: number[];
}

export const CATEGORIES = [
	'idle (waiting for the network and the sandbox)',
	'n8n expressions (isolated sandbox, data proxy)',
	'credential load (database query, decryption)',
	'n8n request helper (n8n-core, axios, agents, proxy checks)',
	'Node http / net / streams',
	'JSON parse and stringify',
	'n8n engine (parameters, run data, sub-workflow)',
	'our node (its dist/)',
	'floor node',
	'n8n-nodes-base (HTTP Request node; Execute Workflow Trigger, Split Out, Count)',
	'garbage collection',
	'V8 and native, unattributed ((program))',
	'other',
] as const;

export type Category = (typeof CATEGORIES)[number];
export type Breakdown = Record<Category, number>;

const [
	IDLE,
	EXPRESSIONS,
	CREDENTIALS,
	HELPER,
	NODE_NET,
	JSON_,
	ENGINE,
	OURS,
	FLOOR,
	HTTP_NODE,
	GC,
	PROGRAM,
	OTHER,
] = CATEGORIES;

function isExpression(url: string, fn: string): boolean {
	return (
		/node_modules\/(@n8n\/expression-runtime|isolated-vm|@n8n\/tournament|esprima-next|recast|ast-types|jmespath)\//.test(
			url,
		) ||
		/n8n-workflow\/dist\/.*(expression|workflow-data-proxy|extensions\/)/.test(url) ||
		/\/n8n\/dist\/expression-/.test(url) ||
		(url.includes('n8n-workflow') &&
			/^(resolveSimpleParameterValue|getParameterValue|evaluateExpression)$/.test(fn))
	);
}

function isCredentialLoad(url: string, fn: string): boolean {
	return (
		/\/n8n\/dist\/credentials-helper\.js/.test(url) ||
		/^_?getCredentials$/.test(fn) ||
		/\/n8n-core\/dist\/encryption\//.test(url)
	);
}

function packageOf(url: string): string | undefined {
	return /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
}

function byPackage(url: string, fn: string): Category {
	if (fn === 'parse' || fn === 'stringify') return url === '' ? JSON_ : OTHER;
	const pkg = packageOf(url);
	if (pkg === 'n8n-nodes-integration-service') return OURS;
	if (pkg === 'n8n-nodes-bench-floor') return FLOOR;
	if (pkg === 'n8n-nodes-base') return HTTP_NODE;
	if (pkg && /^(sqlite3|@n8n\/typeorm|tarn|@n8n\/db)$/.test(pkg)) return CREDENTIALS;
	if (
		pkg &&
		/^(@n8n\/backend-network|axios|follow-redirects|proxy-from-env|form-data|http-proxy-agent|https-proxy-agent|agent-base)$/.test(
			pkg,
		)
	)
		return HELPER;
	if (/n8n-core\/dist\/execution-engine\/node-execution-context\/utils\/request-helper/.test(url))
		return HELPER;
	if (pkg && /^(n8n-core|n8n-workflow|n8n|@n8n\/.*|lodash)$/.test(pkg)) return ENGINE;
	if (
		/^node:(_http|http|net|internal\/stream|stream|internal\/streams|events|internal\/url|url|internal\/dns|dns|buffer|internal\/async_hooks|internal\/timers|timers)/.test(
			url,
		)
	)
		return NODE_NET;
	return OTHER;
}

export interface Window {
	key: string;
	/** Epoch milliseconds (n8n's run data), turned into the profile's monotonic clock with `epochMinusMonotonicMs`. */
	fromEpochMs: number;
	toEpochMs: number;
}

export interface WindowSummary {
	breakdown: Breakdown;
	/** Our node's own functions by self time (ms), largest first. */
	oursTop: Array<{ fn: string; ms: number }>;
}

/** Milliseconds per category within each window. `epochMinusMonotonicMs`: Date.now() − process.hrtime in ms, on this machine. */
export function summariseProfile(
	path: string,
	windows: Window[],
	epochMinusMonotonicMs: number,
): Map<string, WindowSummary> {
	const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const cache = new Map<number, Category>();
	const categoryOf = (id: number): Category => {
		const cached = cache.get(id);
		if (cached !== undefined) return cached;
		const { functionName: fn, url } = byId.get(id)!.callFrame;
		let category: Category;
		if (fn === '(idle)') category = IDLE;
		else if (fn === '(garbage collector)') category = GC;
		else if (fn === '(program)') category = PROGRAM;
		else {
			let innermost: { url: string; fn: string } | undefined = url ? { url, fn } : undefined;
			let found: Category | undefined;
			for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
				const frame = byId.get(p)!.callFrame;
				if (isExpression(frame.url, frame.functionName)) {
					found = EXPRESSIONS;
					break;
				}
				if (isCredentialLoad(frame.url, frame.functionName)) {
					found = CREDENTIALS;
					break;
				}
				if (!innermost && frame.url) innermost = { url: frame.url, fn: frame.functionName };
			}
			category =
				found ??
				(url === '' && (fn === 'parse' || fn === 'stringify')
					? JSON_
					: innermost
						? byPackage(innermost.url, innermost.fn)
						: OTHER);
		}
		cache.set(id, category);
		return category;
	};
	const ourFunction = (id: number): string => {
		const { functionName, url, lineNumber } = byId.get(id)!
			.callFrame as ProfileNode['callFrame'] & { lineNumber?: number };
		return `${functionName || '(anonymous)'} (${url.replace(/^.*\/dist\//, '')}:${(lineNumber ?? -1) + 1})`;
	};
	const result = new Map<string, WindowSummary>();
	const ranges = windows.map((w) => ({
		ours: new Map<string, number>(),
		key: w.key,
		from: (w.fromEpochMs - epochMinusMonotonicMs) * 1000,
		to: (w.toEpochMs - epochMinusMonotonicMs) * 1000,
		totals: Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Breakdown,
	}));
	let at = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		at += profile.timeDeltas[i];
		for (const r of ranges) {
			if (at < r.from || at > r.to) continue;
			const id = profile.samples[i];
			const category = categoryOf(id);
			const ms = profile.timeDeltas[i] / 1000;
			r.totals[category] += ms;
			if (category === OURS && byId.get(id)!.callFrame.url)
				r.ours.set(ourFunction(id), (r.ours.get(ourFunction(id)) ?? 0) + ms);
		}
	}
	for (const r of ranges) {
		const oursTop = [...r.ours]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 8)
			.map(([fn, ms]) => ({ fn, ms }));
		result.set(r.key, { breakdown: r.totals, oursTop });
	}
	return result;
}

/** Date.now() − the monotonic clock of process.hrtime and of V8's profiles, in ms. */
export function epochMinusMonotonicMs(): number {
	return Date.now() - Number(process.hrtime.bigint() / 1000n) / 1000;
}
