import { escapeRegExp } from './encodedChars';
import { holdsRun } from './secretRuns';
import { encodedPattern, redactForms, secretRuns } from './secrets';

/**
 * Taking the secrets' forms (secrets.ts) out of a successful answer: the raw text is searched once,
 * and only an answer that holds one (nearly none) is copied with every string redacted, keys included.
 */

/**
 * What to look for in an answer's raw text: the forms as JSON text writes them (`"`, `\\` and control
 * characters escaped, also `/` as `\\/`), without any that holds a shorter one (finding that one
 * suffices): each form looked for costs a pass over the answer.
 */
const writtenFormsOf = new WeakMap<readonly string[], RegExp[]>();

/**
 * The kind of a form, for grouping: one pattern of forms that start with different kinds of
 * characters costs far more than one per kind (hex forms mixed in tripled a 150 KB page's check).
 */
const kindOf = (form: string) => (/^[0-9a-fA-F]+$/.test(form) ? 'hex' : form[0] === '%' ? '%' : '');

/**
 * Patterns that find any of the written forms, one per kind: a page of a list is read once per kind,
 * not once per form (the patterns only say whether one is there; redactValue takes them out).
 */
function writtenFormsList(forms: readonly string[]): string[] {
	const escaped = forms.flatMap((form) => {
		const json = JSON.stringify(form).slice(1, -1);
		return [form, json, json.replace(/\//g, '\\/')];
	});
	const shortestFirst = [...new Set(escaped)].sort((a, b) => a.length - b.length);
	return shortestFirst.filter(
		(form, index) => !shortestFirst.slice(0, index).some((shorter) => form.includes(shorter)),
	);
}

function writtenForms(forms: readonly string[]): RegExp[] {
	let written = writtenFormsOf.get(forms);
	if (!written) {
		const needed = writtenFormsList(forms);
		const kinds = new Map<string, string[]>();
		for (const form of needed) kinds.set(kindOf(form), [...(kinds.get(kindOf(form)) ?? []), form]);
		// No forms (a credential without secrets): no pattern, nothing found.
		written = [...kinds.values()].map((group) => new RegExp(group.map(escapeRegExp).join('|')));
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

/**
 * One pattern for a first look at an answer: the written forms and the blocks that every run of a
 * secret holds (secretRuns.ts), all but the hex forms, which one pattern with the others costs
 * several times more. A page holds none of them nearly always: one pass then rules out both checks
 * below, where two passes (one of them the slow one of short blocks) cost a 150 KB page 0.05 ms more.
 */
const screensOf = new WeakMap<readonly string[], RegExp[]>();

function screens(forms: readonly string[]): RegExp[] {
	let found = screensOf.get(forms);
	if (!found) {
		const blocks = [...(secretRuns(forms)?.blocks.keys() ?? [])];
		const byKind = new Map<string, string[]>([['', blocks]]);
		for (const form of writtenFormsList(forms)) {
			const kind = kindOf(form) === 'hex' ? 'hex' : '';
			byKind.set(kind, [...(byKind.get(kind) ?? []), form]);
		}
		found = [...byKind.values()]
			.filter((group) => group.length > 0)
			.map((group) => new RegExp(group.map(escapeRegExp).join('|')));
		screensOf.set(forms, found);
	}
	return found;
}

/** Whether an answer's raw text holds a form of a known secret, as text or as JSON writes it. */
function holdsSecret(text: string, forms: readonly string[]): boolean {
	// Nothing a form or a run starts from, and no escape or entity that could hide one: no secret.
	if (!screens(forms).some((screen) => screen.test(text)) && !holdsEscape(text)) return false;
	const written = writtenForms(forms);
	if (written.some((kind) => kind.test(text))) return true;
	// A secret cut at either end (secretRuns.ts).
	const runs = secretRuns(forms);
	if (runs && holdsRun(text, runs)) return true;
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
	return (
		written.some((kind) => kind.test(decoded)) || (pattern !== null && decoded.search(pattern) >= 0)
	);
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
