/**
 * Parts of a secret (secrets.ts owns the rule): any run of enough consecutive characters of a secret,
 * raw or with every byte percent-encoded or in hex, which a service or proxy may echo cut at either
 * end (`hostile-tok-SECRET-` of `hostile-tok-SECRET-987`). Such a run still narrows the secret down
 * to a guess, so it is a secret too; a list of whole forms cannot hold every cut.
 */

/** Sources shorter than this are matched whole only (secrets.ts's forms): a run of one would hide words. */
const MIN_SOURCE = 8;
/** A run this long of a longer secret is redacted: about 70 bits of a random token, no ordinary word. */
const RUN = 12;

/** The shortest run of a source of this length that counts: 12, or all but 4 characters of a shorter one. */
export const runLength = (length: number): number =>
	Math.min(RUN, Math.max(MIN_SOURCE, length - 4));

interface Block {
	source: string;
	at: number;
	min: number;
}

/** Finds runs of sources in a text: each run holds one of its source's blocks whole. */
export interface RunFinder {
	blocks: Map<string, Block[]>;
	pattern: RegExp;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The blocks of a source: pieces of half the run length, at every multiple of it and at the end, so
 * any run of at least `min` characters holds one of them whole.
 */
function addBlocks(blocks: Map<string, Block[]>, source: string, min: number): void {
	const size = Math.floor((min + 1) / 2);
	const starts = new Set<number>();
	for (let at = 0; at + size <= source.length; at += size) starts.add(at);
	starts.add(source.length - size);
	for (const at of starts) {
		const block = source.slice(at, at + size);
		const list = blocks.get(block) ?? [];
		list.push({ source, at, min });
		blocks.set(block, list);
	}
}

/** The finder for these secrets (null when none is long enough to have runs). */
export function runFinder(secrets: readonly string[]): RunFinder | null {
	const blocks = new Map<string, Block[]>();
	for (const secret of secrets) {
		if (secret.length < MIN_SOURCE) continue;
		addBlocks(blocks, secret, runLength(secret.length));
	}
	if (!blocks.size) return null;
	const pattern = new RegExp([...blocks.keys()].map(escapeRegExp).join('|'), 'g');
	return { blocks, pattern };
}

/** The run of `block`'s source around a hit at `hit`, as [start, end) in the text, if long enough. */
function runAround(text: string, hit: number, block: Block, size: number): [number, number] | null {
	let start = hit;
	let from = block.at;
	while (start > 0 && from > 0 && text[start - 1] === block.source[from - 1]) {
		start--;
		from--;
	}
	let end = hit + size;
	let to = block.at + size;
	while (end < text.length && to < block.source.length && text[end] === block.source[to]) {
		end++;
		to++;
	}
	return end - start >= block.min ? [start, end] : null;
}

/** Whether the text holds a run of a source. */
export function holdsRun(text: string, finder: RunFinder): boolean {
	const pattern = finder.pattern;
	pattern.lastIndex = 0;
	for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
		for (const block of finder.blocks.get(match[0]) ?? [])
			if (runAround(text, match.index, block, match[0].length)) return true;
		pattern.lastIndex = match.index + 1;
	}
	return false;
}

/** Every run of a source in the text, as [start, end) ranges in text order (they may overlap). */
export function findRuns(text: string, finder: RunFinder): Array<[number, number]> {
	const runs: Array<[number, number]> = [];
	const pattern = finder.pattern;
	pattern.lastIndex = 0;
	for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
		for (const block of finder.blocks.get(match[0]) ?? []) {
			const run = runAround(text, match.index, block, match[0].length);
			if (run) runs.push(run);
		}
		// Blocks may overlap: the next search starts one character on, not after this block.
		pattern.lastIndex = match.index + 1;
	}
	return runs;
}

/** The text with every run replaced by the placeholder (overlapping or touching runs as one). */
export function redactRuns(text: string, finder: RunFinder, placeholder: string): string {
	const runs = findRuns(text, finder).sort((a, b) => a[0] - b[0]);
	const merged: Array<[number, number]> = [];
	for (const [start, end] of runs) {
		const last = merged[merged.length - 1];
		if (last && start <= last[1]) last[1] = Math.max(last[1], end);
		else merged.push([start, end]);
	}
	let result = '';
	let done = 0;
	for (const [start, end] of merged) {
		result += text.slice(done, start) + placeholder;
		done = end;
	}
	return result + text.slice(done);
}
