import type { IDataObject } from 'n8n-workflow';

import { encodedCharsPattern } from './encodedChars';
import type { RunFinder } from './secretRuns';
import { redactRuns, runFinder } from './secretRuns';

/**
 * Every form in which a secret may come back from a service, a proxy or an error page, and taking
 * them out of what leaves the node: error messages here, successful answers in answerRedaction.ts.
 */

export const PLACEHOLDER = '[redacted]';
/** Shorter values would blank out ordinary words; real tokens and secrets are far longer. */
export const MIN_SECRET_LENGTH = 4;
/** A fragment of a longer base64 text is matched only from this length on, so short ones hide no words. */
const MIN_FRAGMENT_LENGTH = 8;

function htmlForms(secret: string): string[] {
	const named = secret
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
	return [
		named,
		named.replace(/&#39;/g, '&#x27;').replace(/\//g, '&#x2F;'),
		named.replace(/&#39;/g, '&apos;'),
	];
}

function jsonForms(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	const unicode = json.replace(
		/[<>&']/g,
		(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
	return [json, json.replace(/\//g, '\\/'), unicode];
}

/** Every character that `kept` does not match percent-encoded (its UTF-8 bytes, upper-case hex). */
function percentEncoded(secret: string, kept: RegExp): string {
	let encoded = '';
	for (const char of secret) {
		if (kept.test(char)) encoded += char;
		else
			for (const byte of Buffer.from(char, 'utf8'))
				encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
	}
	return encoded;
}

const lowerHex = (encoded: string) => encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());

/**
 * URL-encoded as encodeURIComponent, encodeURI and forms do, and as stricter encoders and proxies
 * re-encode it: its dots as `%2E` or `%2e` too (a JWT's dots), RFC 3986's unreserved characters
 * only, every character but letters and digits, or every byte; with upper- and lower-case hex.
 */
function urlForms(secret: string): string[] {
	const component = encodeURIComponent(secret);
	const dots = [component, lowerHex(component)].flatMap((encoded) => [
		encoded.replace(/\./g, '%2E'),
		encoded.replace(/\./g, '%2e'),
	]);
	const stricter = [
		percentEncoded(secret, /[A-Za-z0-9\-._~]/),
		percentEncoded(secret, /[A-Za-z0-9]/),
		percentEncoded(secret, /[^\s\S]/),
	];
	return [
		component,
		component.replace(/%20/g, '+'),
		lowerHex(component),
		encodeURI(secret),
		...dots,
		...stricter,
		...stricter.map(lowerHex),
	];
}

/**
 * The secret's bytes in base64 and base64url, whole (with and without padding) and as they stand
 * inside a longer encoded text: for each of the three byte alignments, the characters that only the
 * secret's bytes decide. An echo of a whole request or header, base64-encoded, is caught too.
 */
function base64Forms(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	const forms: string[] = [];
	for (const alphabet of ['base64', 'base64url'] as const) {
		const whole = bytes.toString(alphabet);
		forms.push(whole, whole.replace(/=+$/, ''));
		for (let offset = 0; offset < 3; offset++) {
			const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(alphabet);
			const start = Math.ceil((8 * offset) / 6);
			const end = Math.floor((8 * (offset + bytes.length)) / 6);
			const fragment = encoded.slice(start, end);
			if (fragment.length >= MIN_FRAGMENT_LENGTH) forms.push(fragment);
		}
	}
	return forms;
}

/** The UTF-8 bytes and the UTF-16 units (big- and little-endian, `0068…`, `6800…`) in hex, both cases. */
function hexForms(secret: string): string[] {
	const hex = Buffer.from(secret, 'utf8').toString('hex');
	const utf16 = Array.from({ length: secret.length }, (_, at) =>
		secret.charCodeAt(at).toString(16).padStart(4, '0'),
	).join('');
	const utf16le = Buffer.from(secret, 'utf16le').toString('hex');
	return [hex, hex.toUpperCase(), utf16, utf16.toUpperCase(), utf16le, utf16le.toUpperCase()];
}

/** Every form in which a secret may come back from a service, a proxy or an error page. */
function encodedForms(secret: string): string[] {
	return [
		secret,
		...urlForms(secret),
		...htmlForms(secret),
		...jsonForms(secret),
		...base64Forms(secret),
		...hexForms(secret),
	];
}

/** A signed JWT: its header is the same for every token of an algorithm, so it identifies nothing. */
const JWT = /^eyJ[A-Za-z0-9_-]*\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

/**
 * A value raw and trimmed and, for a JWT, its payload and its signature on their own: an echo without
 * the header (`<payload>.<signature>`) is rebuilt into a working token by putting the constant back.
 */
const withParts = (values: readonly string[]): string[] =>
	values
		.flatMap((value) => [value, value.trim()])
		.flatMap((value) => {
			const jwt = JWT.exec(value);
			return jwt ? [value, jwt[1], jwt[2]] : [value];
		});

/**
 * What a run of (secretRuns.ts) counts for: each secret, but for a JWT only its signature (the
 * header and claims are no secret: anyone who knows the client ID could write them).
 */
const runSources = (values: readonly string[]): string[] =>
	values.flatMap((value) => [value, value.trim()]).map((value) => JWT.exec(value)?.[2] ?? value);

function formsOfValues(values: readonly string[]): string[] {
	const secrets = withParts(values).filter((value) => value.length >= MIN_SECRET_LENGTH);
	return [...new Set(secrets.flatMap(encodedForms))].filter(
		(form) => form.length >= MIN_SECRET_LENGTH,
	);
}

const longestFirst = (forms: string[]): string[] => forms.sort((a, b) => b.length - a.length);

/** Forms per loaded credential: a run loads it once and sends many requests with it. */
const formsOf = new WeakMap<IDataObject, readonly string[]>();

/** The secrets of a credential (raw and trimmed) in every encoded form, longest first. */
export function secretForms(credentials: IDataObject): readonly string[] {
	const known = formsOf.get(credentials);
	if (known) return known;
	const values = ['accessToken', 'clientSecret', 'signingSecret', 'sessionToken']
		.map((field) => credentials[field])
		.filter((value): value is string => typeof value === 'string');
	const sorted = longestFirst(formsOfValues(values));
	formsOf.set(credentials, sorted);
	secretsOf.set(sorted, usable(values));
	runSourcesOf.set(sorted, runSources(values));
	return sorted;
}

/** The secrets themselves (raw and trimmed) behind each list of forms, for `encodedPattern`. */
const secretsOf = new WeakMap<readonly string[], readonly string[]>();

/** A JWT's parts are left out: the whole JWT's pattern would be cut by theirs (the pattern runs first). */
const usable = (values: readonly string[]): string[] =>
	[...new Set(values.flatMap((value) => [value, value.trim()]))].filter(
		(value) => value.length >= MIN_SECRET_LENGTH,
	);

/** The secrets whose runs count (runSources), behind each list of forms. */
const runSourcesOf = new WeakMap<readonly string[], readonly string[]>();

/** The last secret added to each list of forms: requests of one second share their signed token. */
const lastAdded = new WeakMap<readonly string[], { secret: string; forms: readonly string[] }>();

/**
 * The forms with those of one more secret added: the token an attempt actually sent (in Client ID
 * and Secret mode a new one every second), which the loaded credential does not hold.
 */
export function withSecret(forms: readonly string[], secret: string): readonly string[] {
	if (secret.length < MIN_SECRET_LENGTH || forms.includes(secret)) return forms;
	const last = lastAdded.get(forms);
	if (last?.secret === secret) return last.forms;
	const added = withForms(forms, [secret]);
	lastAdded.set(forms, { secret, forms: added });
	return added;
}

/** A new list of forms: those given and those of the secrets, with what the patterns need. */
function withForms(forms: readonly string[], secrets: readonly string[]): readonly string[] {
	const added = longestFirst([...new Set([...forms, ...formsOfValues(secrets)])]);
	secretsOf.set(added, usable([...(secretsOf.get(forms) ?? []), ...secrets]));
	runSourcesOf.set(added, [...(runSourcesOf.get(forms) ?? []), ...runSources(secrets)]);
	return added;
}

/**
 * The forms with those of a request's write-only values added (a user's password: request.ts):
 * redacted as the credential's secrets are. Made for that request only: what is derived from them is
 * keyed by this list, so nothing outlives the request. A value under MIN_SECRET_LENGTH characters
 * would blank out words, so it is left.
 */
export function withWriteOnly(
	forms: readonly string[],
	values: readonly string[],
): readonly string[] {
	const secrets = values.filter((value) => value.trim().length >= MIN_SECRET_LENGTH);
	return secrets.length ? withForms(forms, secrets) : forms;
}

/**
 * The secrets with each character written in any of those ways, in any mix: what a JSON writer's
 * escape set (`\/` with `\u0026`, Go's `\u003c`), a per-character encoder or an HTML template makes
 * of a secret, which no list of whole forms covers. Null when the forms carry no known secrets.
 */
const patternOf = new WeakMap<readonly string[], RegExp | null>();

export function encodedPattern(forms: readonly string[]): RegExp | null {
	if (patternOf.has(forms)) return patternOf.get(forms) ?? null;
	const secrets = longestFirst([...(secretsOf.get(forms) ?? [])]);
	const pattern = secrets.length ? encodedCharsPattern(secrets) : null;
	patternOf.set(forms, pattern);
	return pattern;
}

const finderOf = new WeakMap<readonly string[], RunFinder | null>();

/** What finds runs of the secrets behind these forms (secretRuns.ts); null when none has any. */
export function secretRuns(forms: readonly string[]): RunFinder | null {
	if (finderOf.has(forms)) return finderOf.get(forms) ?? null;
	const finder = runFinder([...new Set(runSourcesOf.get(forms) ?? [])]);
	finderOf.set(forms, finder);
	return finder;
}

/**
 * Replaces every form of the known secrets (longest first, so no part of a longer form is left), then
 * every run of a secret's characters that is left (a secret cut at either end).
 */
export function redactForms(text: string, forms: readonly string[]): string {
	const pattern = encodedPattern(forms);
	let result = pattern ? text.replace(pattern, PLACEHOLDER) : text;
	for (const form of forms) result = result.split(form).join(PLACEHOLDER);
	const runs = secretRuns(forms);
	return runs ? redactRuns(result, runs, PLACEHOLDER) : result;
}

/**
 * A base64url character of a JWT's part, also percent-encoded, and a dot between parts, also as
 * `%2E`, a JSON `\u002e` or an HTML `&#46;` / `&#x2e;` (either case).
 */
const JWT_CHAR = '(?:[A-Za-z0-9_-]|%2[Dd]|%5[Ff])';
const JWT_DOT = '(?:\\.|%2[Ee]|\\\\u002[Ee]|&#0*46;|&#[xX]0*2[Ee];)';
const ANY_JWT = new RegExp(`eyJ${JWT_CHAR}*${JWT_DOT}${JWT_CHAR}+${JWT_DOT}${JWT_CHAR}*`, 'g');

/**
 * For messages: replaces every secret form, any bearer token and any JWT by a placeholder. Runs on
 * the whole text before anything shortens it, so a cut can never leave part of a secret behind.
 */
export function redact(text: string, forms: readonly string[]): string {
	return (
		redactForms(text, forms)
			.replace(/(Bearer)(\s|%20|\+)+[A-Za-z0-9._~+/=%-]+/gi, `$1 ${PLACEHOLDER}`)
			// A JWT anywhere (a signed token echoed back) is a credential too, whatever its base64url parts hold.
			.replace(ANY_JWT, PLACEHOLDER)
	);
}
