/**
 * Where the time goes: sums a V8 CPU profile's samples (taken with --cpu-prof) over the measured
 * window only, by who spends them (self time, attributed by script URL and function).
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
	'waiting (idle: network and server latency)',
	'TCP connect + first write (a new connection per request)',
	'n8n HTTP helper (axios, follow-redirects, agents, proxy checks)',
	'Node http / sockets',
	'JSON parse of responses',
	'n8n expressions ({{ }} per item)',
	'n8n engine (parameters, credentials, workflow)',
	'our node (dist/)',
	'garbage collection',
	'other',
] as const;

export type Category = (typeof CATEGORIES)[number];

function categorise(frame: ProfileNode['callFrame'], parents: Array<ProfileNode['callFrame']>): Category {
	const { functionName: fn, url } = frame;
	const parentUrls = parents.map((p) => p.url);
	if (fn === '(idle)') return CATEGORIES[0];
	if (fn === '(garbage collector)') return CATEGORIES[8];
	// Native frames (no URL) are charged to the first caller that has one.
	const where = url || parentUrls.find((u) => u !== '') || '';
	if (fn === 'parse' && url === '') {
		return CATEGORIES[4];
	}
	if (/node:net$/.test(where) && /connect|Connect/.test(fn)) return CATEGORIES[1];
	if (fn === 'writeLatin1String' || fn === 'writeUtf8String' || fn === 'writev') {
		// The first write on a new socket happens in its 'connect' handler.
		return parents.some((p) => p.url === 'node:net' && p.functionName === 'connect') ? CATEGORIES[1] : CATEGORIES[3];
	}
	if (/parseJsonBody/.test(fn)) return CATEGORIES[4];
	if (/\/dist\/(nodes|credentials)\//.test(where)) return CATEGORIES[7];
	if (/node_modules\/(axios|follow-redirects|@n8n\/backend-network|proxy-from-env|form-data)\//.test(where)) return CATEGORIES[2];
	if (/node_modules\/(luxon|@n8n\/tournament|@n8n\/expression-runtime|jmespath|esprima-next|recast)\//.test(where) || /n8n-workflow\/dist\/.*(expression|workflow-data-proxy|extensions)/.test(where)) {
		return CATEGORIES[5];
	}
	if (/node_modules\/(n8n-core|n8n-workflow|@n8n)\//.test(where) || /\/build\/test\/harness\//.test(where)) return CATEGORIES[6];
	if (/^node:(_http|http|net|internal\/stream|stream|internal\/streams|events|buffer|internal\/url|url)/.test(where)) return CATEGORIES[3];
	return CATEGORIES[9];
}

/** Milliseconds per category within [fromUs, toUs] on the profile's clock. */
export function summariseProfile(path: string, fromUs: number, toUs: number): Record<Category, number> {
	const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const cache = new Map<number, Category>();
	const categoryOf = (id: number): Category => {
		let category = cache.get(id);
		if (category === undefined) {
			const frames: Array<ProfileNode['callFrame']> = [];
			for (let p = parent.get(id), depth = 0; p !== undefined && depth < 8; p = parent.get(p), depth++) {
				frames.push(byId.get(p)!.callFrame);
			}
			category = categorise(byId.get(id)!.callFrame, frames);
			cache.set(id, category);
		}
		return category;
	};
	const totals = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
	let at = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		at += profile.timeDeltas[i];
		if (at < fromUs || at > toUs) continue;
		totals[categoryOf(profile.samples[i])] += profile.timeDeltas[i] / 1000;
	}
	return totals;
}
