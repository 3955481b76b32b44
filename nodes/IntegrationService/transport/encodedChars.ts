/**
 * A secret with each of its characters written as JSON or HTML may write it, in any mix: the part of
 * redaction (owned by secrets.ts) that no list of whole encoded forms can cover.
 */

/** How JSON or HTML may write a character besides itself: short JSON escapes and named entities. */
const ESCAPES: Record<string, string[]> = {
	'"': ['\\"', '&quot;'],
	'\\': ['\\\\'],
	'/': ['\\/'],
	'&': ['&amp;'],
	'<': ['&lt;'],
	'>': ['&gt;'],
	"'": ['&apos;'],
	'\b': ['\\b'],
	'\f': ['\\f'],
	'\n': ['\\n'],
	'\r': ['\\r'],
	'\t': ['\\t'],
};
/** A text as a pattern that matches it literally. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const anyCaseHex = (hex: string) =>
	hex.replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);

/**
 * One character as it stands, percent-encoded (its UTF-8 bytes, either hex case), as a JSON `\u`
 * escape (each UTF-16 unit, either hex case; its backslash doubled too, as a message that quotes a
 * value with JSON.stringify writes it), a short JSON escape, an HTML numeric entity (decimal or hex,
 * either case, leading zeros) or named entity.
 */
function charPattern(char: string): string {
	const code = char.codePointAt(0) ?? 0;
	let units = '';
	for (let i = 0; i < char.length; i++)
		units += `\\\\+u${anyCaseHex(char.charCodeAt(i).toString(16).padStart(4, '0'))}`;
	const written = [char, ...(ESCAPES[char] ?? [])].map(escapeRegExp);
	const entities = [`&#0*${code};`, `&#[xX]0*${anyCaseHex(code.toString(16))};`];
	// Percent-encoded, each byte's hex in either case (a whole form list holds only all-lower and all-upper).
	const percent = Array.from(new TextEncoder().encode(char), (byte) =>
		anyCaseHex(`%${byte.toString(16).padStart(2, '0')}`),
	).join('');
	return `(?:${[...written, units, percent, ...entities].join('|')})`;
}

/** The secrets (longest first), each character in any of those ways, as one global pattern. */
export function encodedCharsPattern(secrets: readonly string[]): RegExp {
	return new RegExp(
		secrets.map((secret) => Array.from(secret, charPattern).join('')).join('|'),
		'g',
	);
}
