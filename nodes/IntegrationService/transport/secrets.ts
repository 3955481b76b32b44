import type { IDataObject } from 'n8n-workflow';

/** A secret echoed back by accident (a gateway quoting the Authorization header), in the forms an echo writes. */

type Forms = readonly string[];
export const PLACEHOLDER = '[redacted]';
/** Shorter values would blank out ordinary words; real tokens and secrets are far longer. */
const MIN_SECRET_LENGTH = 4;

const SECRET_FIELDS = ['accessToken', 'clientSecret', 'signingSecret', 'sessionToken'];

/** A signed JWT: its header is the same for every token of an algorithm, so it identifies nothing. */
const JWT = /^eyJ[A-Za-z0-9_-]*\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

const HTML_ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
};
const longestFirst = (a: string, b: string) => b.length - a.length;

function formsOfSecret(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	const html = secret.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? '&#39;');
	const bytes = Buffer.from(secret, 'utf8');
	const base64 = bytes.toString('base64');
	const component = encodeURIComponent(secret);
	return [
		secret,
		component,
		// Form encoding, as URLSearchParams writes it and as libraries do (a component, spaces as `+`).
		new URLSearchParams({ s: secret }).toString().slice(2),
		component.replace(/%20/g, '+'),
		json,
		json.replace(/\//g, '\\/'),
		html,
		html.replace(/&#39;/g, '&#x27;'),
		base64,
		base64.replace(/=+$/, ''),
		bytes.toString('base64url'),
	];
}

/** Every form of these secrets (raw and trimmed, a JWT's parts too), longest first: no part of a longer one is left. */
export function formsOf(secrets: Forms): string[] {
	const values = new Set<string>();
	for (const secret of secrets) {
		for (const value of [secret, secret.trim()]) {
			values.add(value);
			const jwt = JWT.exec(value);
			if (jwt) values.add(jwt[1]).add(jwt[2]);
		}
	}
	const forms = new Set<string>();
	for (const value of values) {
		if (value.length < MIN_SECRET_LENGTH) continue;
		let written = [value];
		try {
			written = formsOfSecret(value);
		} catch {
			// A lone UTF-16 surrogate has no URL form.
		}
		for (const form of written) if (form.length >= MIN_SECRET_LENGTH) forms.add(form);
	}
	return [...forms].sort(longestFirst);
}

export function secretForms(credentials: IDataObject): Forms {
	const secrets: string[] = [];
	for (const field of SECRET_FIELDS)
		if (typeof credentials[field] === 'string') secrets.push(credentials[field]);
	return formsOf(secrets);
}

/** The forms with those of more secrets added: the token an attempt sent, a request's write-only values. */
export function withSecrets(forms: Forms, secrets: Forms): Forms {
	const added = formsOf(secrets.filter((secret) => !forms.includes(secret)));
	return added.length === 0 ? forms : [...new Set([...forms, ...added])].sort(longestFirst);
}

export function redactForms(text: string, forms: Forms): string {
	let result = text;
	for (const form of forms)
		if (result.includes(form)) result = result.split(form).join(PLACEHOLDER);
	return result;
}

/** Any JWT, its dots also percent-encoded (a token quoted in a URL). */
const ANY_JWT = /eyJ[A-Za-z0-9_-]*(?:\.|%2[Ee])[A-Za-z0-9_-]+(?:\.|%2[Ee])[A-Za-z0-9_-]*/g;
const BEARER = /(Bearer)(?:\s|%20|\+)+[A-Za-z0-9._~+/=%-]+/gi;

/** For messages: every form of the known secrets, any bearer token and any JWT replaced. */
export function redact(text: string, forms: Forms): string {
	return redactForms(text, forms)
		.replace(BEARER, `$1 ${PLACEHOLDER}`)
		.replace(ANY_JWT, PLACEHOLDER);
}

/** An input message cuts a long value with `…`: the start of a form just before one goes too. */
function withoutCutSecrets(text: string, forms: Forms): string {
	if (!text.includes('…')) return text;
	return text.replace(/([^…]*)…/g, (whole, before: string) => {
		for (const form of forms)
			for (let length = form.length - 1; length >= MIN_SECRET_LENGTH; length--)
				if (before.endsWith(form.slice(0, length)))
					return `${before.slice(0, before.length - length)}${PLACEHOLDER}…`;
		return whole;
	});
}

/** Takes every secret out of an error in place, n8n's messages and wrapped causes too (a cycle is cut at 4). */
export function redactError(error: unknown, forms: Forms, depth = 0): void {
	if (!error || typeof error !== 'object' || depth > 4) return;
	const fields = error as Record<string, unknown>;
	const clean = (text: unknown) =>
		typeof text === 'string' ? withoutCutSecrets(redact(text, forms), forms) : text;
	for (const key of ['message', 'description', 'stack'] as const)
		if (typeof fields[key] === 'string') fields[key] = clean(fields[key]);
	if (Array.isArray(fields.messages)) fields.messages = fields.messages.map(clean);
	redactError(fields.cause, forms, depth + 1);
}

function redactValue(value: unknown, forms: Forms): unknown {
	if (typeof value === 'string') return redactForms(value, forms);
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map((entry) => redactValue(entry, forms));
	// fromEntries defines own properties: a key such as `__proto__` stays data.
	const entries = Object.entries(value).map(([key, entry]) => [
		redactForms(key, forms),
		redactValue(entry, forms),
	]);
	return Object.fromEntries(entries);
}

/**
 * A successful answer without the known secrets' forms, keys included (a service's own JWTs are data).
 * The raw text is searched first, as JSON writes each form: an answer without one is not copied.
 */
export function redactAnswer<T>(value: T, text: string, forms: Forms): T {
	return jsonProbes(forms).some((probe) => text.includes(probe))
		? (redactValue(value, forms) as T)
		: value;
}

const asciiEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * The forms as JSON text writes them, less those containing another (found whenever it is): a list
 * page is searched 4 times instead of 10 for a pasted token; the searches cost more than parsing it.
 */
function jsonProbes(forms: Forms): string[] {
	const written = new Set<string>();
	for (const form of forms) {
		const json = JSON.stringify(form).slice(1, -1);
		written.add(json);
		if (json.includes('/')) written.add(json.replace(/\//g, '\\/'));
		// Python's json (ensure_ascii) writes every other character as a `\u` escape.
		written.add(json.replace(/[\u0080-\uffff]/g, asciiEscape));
	}
	const probes = [...written];
	return probes.filter(
		(probe) => !probes.some((other) => other !== probe && probe.includes(other)),
	);
}
