import type { IDataObject } from 'n8n-workflow';

import { jsonTextProblem } from './jsonNumbers';

/**
 * What the credential, the action node and the trigger know and check alike: the credential type,
 * the four hosts, and the rules for host URLs, links the service gives, header values and
 * JSON-object parameters.
 */

export const CREDENTIAL_TYPE = 'integrationServiceApi';

/** The four hosts of the service; every endpoint lives on exactly one of them. */
export type ServiceHost = 'crm' | 'universal' | 'los' | 'calendar';

export const HOST_FIELDS: Record<ServiceHost, { field: string; label: string }> = {
	crm: { field: 'crmUrl', label: 'CRM Host URL' },
	universal: { field: 'universalUrl', label: 'Universal Host URL' },
	los: { field: 'losUrl', label: 'LOS Host URL' },
	calendar: { field: 'calendarUrl', label: 'Calendar Host URL' },
};

/** decisions.md: X-Service-Credential-Id goes to every host except universal, which manages credentials itself. */
export const HOSTS_WITH_CREDENTIAL_ID: ReadonlySet<ServiceHost> = new Set([
	'crm',
	'los',
	'calendar',
]);

/**
 * Control characters (CR/LF included) in a header value would let an input split or forge headers.
 * Checked by code point rather than a control-character regex, which linters rightly flag.
 */
export function hasControlCharacter(value: string): boolean {
	for (let index = 0; index < value.length; index++) {
		const code = value.charCodeAt(index);
		if (code < 0x20 || code === 0x7f) return true;
	}
	return false;
}

/** The highest character sent as written: visible ASCII and the space (0x20 to 0x7E). */
const LAST_SENDABLE = 0x7e;

/**
 * Why a header value would not reach the service exactly as written, if it would not. n8n's HTTP
 * client strips CR/LF, and writes header values as Latin-1, so `conn-東京` went out as `conn-` and
 * `conn-İd` as `conn-d`: another connection's ID, perhaps. Such a value is refused, never altered.
 */
export function headerValueProblem(value: string): string | undefined {
	if (hasControlCharacter(value)) return 'contains a line break or another control character';
	for (let index = 0; index < value.length; index++) {
		if (value.charCodeAt(index) > LAST_SENDABLE) {
			return 'contains characters that cannot be sent in an HTTP header as written (only ASCII letters, digits, punctuation and spaces)';
		}
	}
	return undefined;
}

/**
 * Why a host URL from the credential cannot be used, if it cannot: http(s) only, no user:password@
 * (the token authenticates every request), no query or fragment. The URL itself is never echoed: it
 * may hold a password.
 */
export function hostUrlProblem(raw: string): string | undefined {
	let parsed: URL | undefined;
	try {
		parsed = new URL(raw.trim());
	} catch {
		parsed = undefined;
	}
	if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
		return 'must be an http:// or https:// URL';
	}
	if (parsed.username !== '' || parsed.password !== '') {
		return 'must not contain a user name or password (user:password@); the token authenticates every request';
	}
	if (parsed.search !== '' || parsed.hash !== '')
		return 'must not contain a query (?) or fragment (#)';
	return undefined;
}

/** A host's base URL (no trailing slash), or why it cannot be used. */
export function hostBaseUrl(
	credentials: IDataObject,
	host: ServiceHost,
): { base: string } | { refused: string } {
	const { field, label } = HOST_FIELDS[host];
	const raw = typeof credentials[field] === 'string' ? (credentials[field] as string).trim() : '';
	const problem = hostUrlProblem(raw);
	if (problem !== undefined) return { refused: `The credential's ${label} ${problem}` };
	return { base: raw.replace(/\/+$/, '') };
}

/** A fixed path part, or an ID the user typed (its field's label names it in errors). */
export type PathSegment = string | { id: string; field: string };

/**
 * `${base}/api/…` with every segment encoded as exactly one segment ("/" and the like escaped), so
 * that a path parameter can never change which endpoint is called; or why an ID cannot be used.
 */
export function endpointUrl(
	base: string,
	path: readonly PathSegment[],
): { url: string } | { refused: string } {
	const parts: string[] = [];
	for (const segment of path) {
		const value = typeof segment === 'string' ? segment : segment.id;
		let encoded: string | undefined;
		try {
			// "." and ".." are resolved by URL parsers even when escaped: refused, as an empty ID is.
			encoded =
				['.', '..'].includes(value) || value.trim() === '' ? undefined : encodeURIComponent(value);
		} catch {
			// A lone UTF-16 surrogate has no UTF-8 form: refused like any ID that cannot be one segment.
		}
		if (encoded === undefined) {
			const field = typeof segment === 'string' ? 'ID' : segment.field;
			return {
				refused:
					value.trim() === ''
						? `${field}: is required but empty`
						: `${field}: "${value}" is not a valid ID`,
			};
		}
		parts.push(encoded);
	}
	return { url: `${base}/api/${parts.join('/')}` };
}

/** The origin of a URL for messages (never its path, query or user info), or a neutral phrase. */
export function originOf(url: string): string {
	try {
		const { origin } = new URL(url);
		return origin === 'null' ? 'a URL without an origin' : origin;
	} catch {
		return 'an invalid URL';
	}
}

/**
 * Resolves a URL the service gave (a nextLink, an event's uri) against the URL it came from, and
 * accepts it only on the given base's origin: our token and credential ID never go anywhere else.
 */
export function sameOriginUrl(
	link: string,
	relativeTo: string,
	base: string,
): { url: string } | { refused: string } {
	let resolved: URL;
	try {
		resolved = new URL(link, relativeTo);
	} catch {
		return { refused: 'an invalid URL' };
	}
	if (
		resolved.username !== '' ||
		resolved.password !== '' ||
		resolved.origin !== new URL(base).origin
	) {
		return { refused: originOf(resolved.href) };
	}
	return { url: resolved.href };
}

/** A URL path's segments, each percent-decoded once (kept as written when it is no valid encoding). */
function decodedSegments(path: string): string[] {
	return path.split('/').map((segment) => {
		try {
			return decodeURIComponent(segment);
		} catch {
			return segment;
		}
	});
}

/**
 * Whether a link as written holds a "." or ".." segment, raw or percent-encoded in any case (`%2e`,
 * `.%2E`, …). URL parsing resolves them (after dropping tabs and line breaks, which are refused here
 * for that reason) before any comparison could see them: `/api/people/%2e%2e/%2e%2e/internal` is
 * `/internal` once parsed.
 */
function dotSegmentProblem(link: string): string | undefined {
	if (hasControlCharacter(link)) return 'it contains a control character';
	const path = link.trim().split(/[?#]/, 1)[0];
	const dots = path.split(/[/\\]/).some((part) => ['.', '..'].includes(part.replace(/%2e/gi, '.')));
	return dots ? 'it has a "." or ".." segment' : undefined;
}

/**
 * A link that continues a list (a nextLink, a cursor's link) as the URL to call: on the base's origin
 * (else `refused`, as sameOriginUrl says), and a page of that list (else `otherList`, saying why): no
 * "." or ".." segment as written, and, as parsed, the list's own path (`listPath`, the first page's).
 * Whatever a service or a forged cursor names, only the list it came from is asked for.
 */
export function sameListUrl(
	link: string,
	relativeTo: string,
	base: string,
	listPath: string,
): { url: string } | { refused: string } | { otherList: string } {
	const target = sameOriginUrl(link, relativeTo, base);
	if ('refused' in target) return target;
	const problem = dotSegmentProblem(link);
	if (problem !== undefined) return { otherList: problem };
	const path = decodedSegments(new URL(target.url).pathname);
	const own = decodedSegments(listPath);
	if (path.length !== own.length || path.some((segment, index) => segment !== own[index]))
		return { otherList: `its path is not ${listPath}` };
	return target;
}

/** Which of the four configured hosts serves this absolute URL (by origin), if any. */
export function hostOfUrl(credentials: IDataObject, url: string): ServiceHost | undefined {
	const hosts = Object.keys(HOST_FIELDS) as ServiceHost[];
	return hosts.find((host) => {
		const configured = hostBaseUrl(credentials, host);
		return 'base' in configured && 'url' in sameOriginUrl(url, configured.base, configured.base);
	});
}

// JSON-object parameters (the node's JSON fields, the trigger's Filters).

/** What a value is, in words for an error message. */
export function describeValue(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * JSON text parsed, or why not: "is not valid JSON", never the parser's message, which quotes the
 * text (a field's text may hold anything, a secret included); or what the text says that its value
 * would not (a key given twice, a number not kept exactly).
 */
export function jsonOf(text: string): { value: unknown } | { problem: string } {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return { problem: 'is not valid JSON' };
	}
	const problem = jsonTextProblem(text);
	return problem === undefined ? { value } : { problem };
}

/**
 * A JSON-object parameter (text, or an object from an expression) as an object, or why it is not one.
 * The problem text follows the field's label: `Filters: must be a JSON object like {"key": "value"}, got a list`.
 */
export function jsonObjectOf(
	value: unknown,
): { object: Record<string, unknown> } | { problem: string } {
	let parsed = value;
	if (typeof value === 'string') {
		const read = jsonOf(value);
		if ('problem' in read) return read;
		parsed = read.value;
	}
	if (!isJsonObject(parsed))
		return { problem: `must be a JSON object like {"key": "value"}, got ${describeValue(parsed)}` };
	return { object: parsed };
}
