/**
 * Where a JSON value holds a number that may have lost digits: beyond ±(2^53 − 1), a number cannot
 * tell which integer it was, so 12345678901234567890 parsed from JSON text or given by a model is
 * already 12345678901234567000. Such a value is refused, never sent rounded (decisions.md, "Numbers
 * are sent exactly or refused"). The path of the first such number ('' for the value itself), or
 * undefined. Iterative, so a deeply nested value cannot overflow the stack.
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
