import { escapeRegExp } from './encodedChars';
import { encodedPattern, redactForms } from './secrets';

/**
 * Taking the secrets' forms (secrets.ts) out of a successful answer: the raw text is searched once,
 * and only an answer that holds one (nearly none) is copied with every string redacted, keys included.
 */

/**
 * What to look for in an answer's raw text: the forms as JSON text writes them (`"`, `\\` and control
 * characters escaped, also `/` as `\\/`), without any that holds a shorter one (finding that one
 * suffices): each form looked for costs a pass over the answer.
 */
const writtenFormsOf = new WeakMap<readonly string[], RegExp>();

/**
 * One pattern that finds any of the written forms: a page of a list is read once for all of them,
 * not once per form (the pattern only says whether one is there; redactValue takes them out).
 */
function writtenForms(forms: readonly string[]): RegExp {
	let written = writtenFormsOf.get(forms);
	if (!written) {
		const escaped = forms.flatMap((form) => {
			const json = JSON.stringify(form).slice(1, -1);
			return [form, json, json.replace(/\//g, '\\/')];
		});
		const shortestFirst = [...new Set(escaped)].sort((a, b) => a.length - b.length);
		const needed = shortestFirst.filter(
			(form, index) => !shortestFirst.slice(0, index).some((shorter) => form.includes(shorter)),
		);
		// No forms (a credential without secrets): a pattern that matches nothing.
		written = new RegExp(needed.length ? needed.map(escapeRegExp).join('|') : '[^\\s\\S]');
		writtenFormsOf.set(forms, written);
	}
	return written;
}

/** What makes a `&` an HTML escape: a numeric or named entity follows. */
const ENTITY_AFTER_AMPERSAND = /&(?:#|amp;|lt;|gt;|quot;|apos;)/y;

/**
 * Whether a text holds a JSON escape or an HTML entity: a `\`, or a `&` that starts an entity (a
 * list's nextLink holds `&` between its query parameters, which is none).
 */
function holdsEscape(text: string): boolean {
	if (text.includes('\\')) return true;
	for (let at = text.indexOf('&'); at >= 0; at = text.indexOf('&', at + 1)) {
		ENTITY_AFTER_AMPERSAND.lastIndex = at;
		if (ENTITY_AFTER_AMPERSAND.test(text)) return true;
	}
	return false;
}
const JSON_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Whether an answer's raw text holds a form of a known secret, as text or as JSON writes it. */
function holdsSecret(text: string, forms: readonly string[]): boolean {
	const written = writtenForms(forms);
	if (written.test(text)) return true;
	// A character written as an escape or an entity needs a `\` or an `&`: most answers hold neither.
	const pattern = encodedPattern(forms);
	if (!holdsEscape(text)) return false;
	if (pattern && text.search(pattern) >= 0) return true;
	// JSON may escape the escapes themselves (`\\u`) or write any character as `\u`: then the text is
	// read with its escapes decoded too.
	if (!text.includes('\\u') && !text.includes('\\\\')) return false;
	const decoded = text.replace(
		/\\(?:u([0-9a-fA-F]{4})|(.))/g,
		(_escape, hex: string | undefined, char: string) =>
			hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : (JSON_ESCAPES[char] ?? char),
	);
	// Each form holds one of `written`: finding none of those rules out every form.
	return written.test(decoded) || (pattern !== null && decoded.search(pattern) >= 0);
}

/** Sets a key as an own property, so a key such as `__proto__` stays data. */
function setOwn(target: object, key: string, value: unknown): void {
	Object.defineProperty(target, key, {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

function redactValue(value: unknown, forms: readonly string[]): unknown {
	if (typeof value === 'string') return redactForms(value, forms);
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map((entry) => redactValue(entry, forms));
	const redacted = {};
	for (const [key, entry] of Object.entries(value))
		setOwn(redacted, redactForms(key, forms), redactValue(entry, forms));
	return redacted;
}

/**
 * For a successful answer: its value with every form of the credential's secrets and the tokens sent
 * taken out of every string, keys included. Only the known secrets: a service's own JWTs are data.
 * The raw text is checked first, so an answer without a secret (nearly all) is returned untouched.
 */
export function redactAnswer<T>(value: T, text: string, forms: readonly string[]): T {
	return holdsSecret(text, forms) ? (redactValue(value, forms) as T) : value;
}
