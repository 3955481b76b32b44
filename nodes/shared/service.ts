import type { IDataObject } from 'n8n-workflow';

import { jsonTextProblem } from './jsonNumbers';

/** What the credential, the action node and the trigger check alike: hosts, links, headers, JSON. */

export const CREDENTIAL_TYPE = 'integrationServiceApi';

export type ServiceHost = 'crm' | 'universal' | 'los' | 'calendar';

/** Each host's credential field, its label, and the endpoints it serves (the credential's form). */
export const HOST_FIELDS: Record<ServiceHost, { field: string; label: string; serves: string }> = {
	crm: { field: 'crmUrl', label: 'CRM Host URL', serves: 'people (CRM)' },
	universal: {
		field: 'universalUrl',
		label: 'Universal Host URL',
		serves: 'credential and authorization-link',
	},
	los: {
		field: 'losUrl',
		label: 'LOS Host URL',
		serves: 'borrower and document (loan origination)',
	},
	calendar: { field: 'calendarUrl', label: 'Calendar Host URL', serves: 'webhook (calendar)' },
};

/** decisions.md: X-Service-Credential-Id goes to every host except universal, which manages credentials itself. */
export const HOSTS_WITH_CREDENTIAL_ID: ReadonlySet<string> = new Set(['crm', 'los', 'calendar']);

/** CR/LF and the other control characters (0x00 to 0x1F, 0x7F) would let an input split or forge headers. */
export const hasControlCharacter = (value: string): boolean => /[^ -~\u0080-\uffff]/.test(value);

/** n8n's client writes headers as Latin-1 (`conn-東京` went out as `conn-`): such a value is refused. */
export function headerValueProblem(value: string): string | undefined {
	if (hasControlCharacter(value)) return 'contains a line break or another control character';
	// Sent as written: visible ASCII and the space (0x20 to 0x7E).
	if (/[^ -~]/.test(value))
		return 'contains characters that cannot be sent in an HTTP header as written (only ASCII letters, digits, punctuation and spaces)';
	return undefined;
}

const hasUserInfo = (url: URL): boolean => url.username !== '' || url.password !== '';

/** http(s) only, no user:password@, no query or fragment; never echoed (it may hold a password). */
export function hostUrlProblem(raw: unknown): string | undefined {
	const text = typeof raw === 'string' ? raw.trim() : '';
	const parsed = URL.canParse(text) ? new URL(text) : undefined;
	if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
		return 'must be an http:// or https:// URL';
	if (hasUserInfo(parsed))
		return 'must not contain a user name or password (user:password@); the token authenticates every request';
	if (parsed.search !== '' || parsed.hash !== '')
		return 'must not contain a query (?) or fragment (#)';
	return undefined;
}

export function hostBaseUrl(
	credentials: IDataObject,
	host: ServiceHost,
): { base: string } | { refused: string } {
	const { field, label } = HOST_FIELDS[host];
	const problem = hostUrlProblem(credentials[field]);
	if (problem !== undefined) return { refused: `The credential's ${label} ${problem}` };
	return { base: (credentials[field] as string).trim().replace(/\/+$/, '') };
}

export type PathSegment = string | { id: string; field: string };

/** Every segment encoded as exactly one, so a path parameter can never change the endpoint. */
export function endpointUrl(
	base: string,
	path: readonly PathSegment[],
): { url: string } | { refused: string } {
	const parts: string[] = [];
	for (const segment of path) {
		const { id, field } = typeof segment === 'string' ? { id: segment, field: 'ID' } : segment;
		if (id.trim() === '') return { refused: `${field}: is required but empty` };
		const encoded = convertedOr(encodeURIComponent, id, '');
		// "." and ".." are resolved by URL parsers even when escaped.
		if (encoded === '' || id === '.' || id === '..')
			return { refused: `${field}: "${id}" is not a valid ID` };
		parts.push(encoded);
	}
	return { url: `${base}/api/${parts.join('/')}` };
}

/** For messages: never a URL's path, query or user info. */
export function originOf(url: string): string {
	if (!URL.canParse(url)) return 'an invalid URL';
	const { origin } = new URL(url);
	return origin === 'null' ? 'a URL without an origin' : origin;
}

/** A URL the service gave, only on the base's origin: our token never goes anywhere else. */
export function sameOriginUrl(
	link: string,
	relativeTo: string,
	base: string,
): { url: string } | { refused: string } {
	if (!URL.canParse(link, relativeTo)) return { refused: 'an invalid URL' };
	const resolved = new URL(link, relativeTo);
	if (hasUserInfo(resolved) || resolved.origin !== new URL(base).origin)
		return { refused: originOf(resolved.href) };
	return { url: resolved.href };
}

/** `convert(text)`, or `fallback` where it throws (a lone surrogate, a stray %, text that is not JSON). */
function convertedOr<T>(convert: (text: string) => T, text: string, fallback: T): T {
	try {
		return convert(text);
	} catch {
		return fallback;
	}
}

const decodedSegments = (path: string): string[] =>
	path.split('/').map((segment) => convertedOr(decodeURIComponent, segment, segment));

/** A nextLink or cursor's link: whatever a service or forged cursor names, only its own list is asked for. */
export function sameListUrl(
	link: string,
	relativeTo: string,
	base: string,
	listPath: string,
): { url: string } | { refused: string } | { otherList: string } {
	const target = sameOriginUrl(link, relativeTo, base);
	if ('refused' in target) return target;
	// Dot segments, raw or encoded, and control characters: URL parsing would resolve them unseen.
	if (hasControlCharacter(link)) return { otherList: 'it contains a control character' };
	const rawPath = link.trim().split(/[?#]/, 1)[0];
	if (rawPath.split(/[/\\]/).some((part) => ['.', '..'].includes(part.replace(/%2e/gi, '.'))))
		return { otherList: 'it has a "." or ".." segment' };
	const path = decodedSegments(new URL(target.url).pathname);
	const own = decodedSegments(listPath);
	if (path.length !== own.length || path.some((segment, index) => segment !== own[index]))
		return { otherList: `its path is not ${listPath}` };
	return target;
}

export function hostOfUrl(credentials: IDataObject, url: string): ServiceHost | undefined {
	return (Object.keys(HOST_FIELDS) as ServiceHost[]).find((host) => {
		const configured = hostBaseUrl(credentials, host);
		return 'base' in configured && 'url' in sameOriginUrl(url, configured.base, configured.base);
	});
}

// JSON-object parameters (the node's JSON fields, the trigger's Filters).

export function describeValue(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON text parsed, or why not (never the parser's message: it quotes the text, which may hold a secret). */
export function jsonOf(text: string): { value: unknown } | { problem: string } {
	// JSON.parse never gives undefined, so undefined says it threw.
	const value: unknown = convertedOr(JSON.parse, text, undefined);
	if (value === undefined) return { problem: 'is not valid JSON' };
	const problem = jsonTextProblem(text);
	return problem === undefined ? { value } : { problem };
}

/** A JSON-object parameter (text or an object), or why not, worded to follow the field's label. */
export function jsonObjectOf(
	value: unknown,
): { object: Record<string, unknown> } | { problem: string } {
	const read = typeof value === 'string' ? jsonOf(value) : { value };
	if ('problem' in read) return read;
	if (!isJsonObject(read.value))
		return {
			problem: `must be a JSON object like {"key": "value"}, got ${describeValue(read.value)}`,
		};
	return { object: read.value };
}
