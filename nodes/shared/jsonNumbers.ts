/**
 * The path of the first number beyond ±(2^53 − 1) ('' for the value itself): such a number has lost
 * digits already, and is refused rather than sent rounded. Iterative, so deep nesting cannot overflow.
 */
export function lossyNumberAt(value: unknown): string | undefined {
	const pending: Array<[unknown, string]> = [[value, '']];
	for (let next = pending.pop(); next; next = pending.pop()) {
		const [here, path] = next;
		if (
			typeof here === 'number' &&
			Number.isFinite(here) &&
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

/** Why such a value is refused; it follows the field's label, and names the place, never the value. */
export const lossyProblem = (path: string): string =>
	`${path === '' ? 'is a number' : `holds at ${path} a number`} beyond ±${Number.MAX_SAFE_INTEGER}, where a number loses digits; it is not sent rounded (give it as text)`;
