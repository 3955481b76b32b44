/** Where the first number beyond ±(2^53 − 1) is ('' for the value itself): it has lost digits, so it is refused, not sent rounded (a queue, not recursion: any depth). */
export function lossyNumberAt(value: unknown): string | undefined {
	const pending: Array<[unknown, string]> = [[value, '']];
	for (const [here, path] of pending) {
		if (
			typeof here === 'number' &&
			// Infinity inside an object would be sent as null; alone, a text field reports it itself.
			(Number.isFinite(here) || path !== '') &&
			Math.abs(here) > Number.MAX_SAFE_INTEGER
		)
			return path;
		if (here === null || typeof here !== 'object') continue;
		for (const [key, inner] of Object.entries(here))
			pending.push([
				inner,
				Array.isArray(here) ? `${path}[${key}]` : path ? `${path}.${key}` : key,
			]);
	}
	return undefined;
}

const numberAt = (path: string) => (path === '' ? 'is a number' : `holds at ${path} a number`);

/** Why such a value is refused; it follows the field's label, and names the place, never the value. */
export const lossyProblem = (path: string): string =>
	`${numberAt(path)} beyond ±${Number.MAX_SAFE_INTEGER}, where a number loses digits; it is not sent rounded (give it as text)`;

/** A decimal number's text in one form: significant digits, e, power of ten of the last ("1.50e2": "15e1"). */
function decimalOf(text: string): string {
	const [mantissa, exponent = '0'] = text.replace(/^-/, '').toLowerCase().split('e');
	const [whole, fraction = ''] = mantissa.split('.');
	const digits = (whole + fraction).replace(/^0+/, '');
	const significant = digits.replace(/0+$/, '');
	if (significant === '') return '0';
	return `${significant}e${Number(exponent) - fraction.length + digits.length - significant.length}`;
}

/** Why a number in JSON text is not sent as written: 1e400 (null), 1.00000000000000001 (1), 1e-400 (0). */
function numberTokenProblem(token: string, place: () => string): string | undefined {
	// At most 15 digits, no exponent: always a safe number that writes back the same (the common case).
	if (/^-?[\d.]{1,15}$/.test(token)) return undefined;
	const value = Number(token);
	if (!Number.isFinite(value)) return lossyProblem(place());
	// Beyond ±(2^53 − 1) but finite: refused by the value's own check, which names the field better.
	if (Math.abs(value) > Number.MAX_SAFE_INTEGER) return undefined;
	if (decimalOf(token) === decimalOf(String(value))) return undefined;
	return `${numberAt(place())} that a number cannot keep exactly (too many digits, or too small); it is not sent rounded (give it as text)`;
}

/** What JSON text says that its parsed value hides: a number not kept exactly, a key given twice (JSON.parse keeps the last). */
export function jsonTextProblem(text: string): string | undefined {
	// A string, a number, or a mark; the literals true, false and null are matched and passed over.
	const token = /\s*(?:("[^"\\]*(?:\\.[^"\\]*)*")|(-?[\d.eE+-]+)|([{}[\],:])|true|false|null)/y;
	const open: Array<{ keys?: Set<string>; key: string; index: number }> = [];
	let keyNext = false;
	// Built only for a problem: a path kept per level would grow with the square of the depth.
	const place = (): string =>
		open
			.map((level, depth) =>
				level.keys ? `${depth === 0 ? '' : '.'}${level.key}` : `[${level.index}]`,
			)
			.join('');
	for (let match = token.exec(text); match; match = token.exec(text)) {
		const [, string, number, mark] = match;
		const top = open[open.length - 1];
		if (string !== undefined && keyNext && top?.keys) {
			top.key = JSON.parse(string) as string;
			keyNext = false;
			if (top.keys.has(top.key))
				return `the field "${place()}" is given twice; give each field once`;
			top.keys.add(top.key);
		} else if (number !== undefined) {
			const problem = numberTokenProblem(number, place);
			if (problem !== undefined) return problem;
		} else if (mark === '{' || mark === '[') {
			open.push({ keys: mark === '{' ? new Set() : undefined, key: '', index: 0 });
			keyNext = mark === '{';
		} else if (mark === '}' || mark === ']') open.pop();
		else if (mark === ',' && top) {
			if (top.keys) keyNext = true;
			else top.index += 1;
		}
	}
	return undefined;
}
