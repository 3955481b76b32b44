import type { IDataObject } from 'n8n-workflow';

/** The four hosts of the service; every endpoint lives on exactly one of them. */
export type ServiceHost = 'crm' | 'universal' | 'los' | 'calendar';

export const HOST_FIELDS: Record<ServiceHost, { field: string; label: string }> = {
	crm: { field: 'crmUrl', label: 'CRM Host URL' },
	universal: { field: 'universalUrl', label: 'Universal Host URL' },
	los: { field: 'losUrl', label: 'LOS Host URL' },
	calendar: { field: 'calendarUrl', label: 'Calendar Host URL' },
};

/** decisions.md: X-Service-Credential-Id goes to every host except universal, which manages credentials itself. */
export const HOSTS_WITH_CREDENTIAL_ID: ReadonlySet<ServiceHost> = new Set(['crm', 'los', 'calendar']);

/** A fixed path part, or an ID the user typed (its field's label names it in errors). */
export type PathSegment = string | { id: string; field: string };

/** A host's base URL (no trailing slash), or why it cannot be used. The URL itself is never echoed: it may hold a password. */
export function hostBaseUrl(credentials: IDataObject, host: ServiceHost): { base: string } | { refused: string } {
	const { field, label } = HOST_FIELDS[host];
	const raw = typeof credentials[field] === 'string' ? (credentials[field] as string).trim() : '';
	let parsed: URL | undefined;
	try {
		parsed = new URL(raw);
	} catch {
		parsed = undefined;
	}
	if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
		return { refused: `The credential's ${label} must be an http:// or https:// URL` };
	}
	if (parsed.username !== '' || parsed.password !== '') {
		return {
			refused: `The credential's ${label} must not contain a user name or password (user:password@); the token authenticates every request`,
		};
	}
	if (parsed.search !== '' || parsed.hash !== '') {
		return { refused: `The credential's ${label} must not contain a query (?) or fragment (#)` };
	}
	return { base: raw.replace(/\/+$/, '') };
}

/**
 * Encodes one path parameter so that it can never change which endpoint is called: "/" and the like
 * are escaped, and "." / ".." (which URL parsers resolve even when escaped) are refused.
 */
function encodePathSegment(value: string): string | undefined {
	return value === '.' || value === '..' || value.trim() === '' ? undefined : encodeURIComponent(value);
}

/** `${base}/api/…` with every segment encoded as exactly one segment, or why an ID cannot be used. */
export function endpointUrl(base: string, path: readonly PathSegment[]): { url: string } | { refused: string } {
	const parts: string[] = [];
	for (const segment of path) {
		const value = typeof segment === 'string' ? segment : segment.id;
		const encoded = encodePathSegment(value);
		if (encoded === undefined) {
			const field = typeof segment === 'string' ? 'ID' : segment.field;
			return { refused: value.trim() === '' ? `${field}: is required but empty` : `${field}: "${value}" is not a valid ID` };
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
export function sameOriginUrl(link: string, relativeTo: string, base: string): { url: string } | { refused: string } {
	let resolved: URL;
	try {
		resolved = new URL(link, relativeTo);
	} catch {
		return { refused: 'an invalid URL' };
	}
	if (resolved.username !== '' || resolved.password !== '' || resolved.origin !== new URL(base).origin) {
		return { refused: originOf(resolved.href) };
	}
	return { url: resolved.href };
}

/** Which of the four configured hosts serves this absolute URL (by origin), if any. */
export function hostOfUrl(credentials: IDataObject, url: string): ServiceHost | undefined {
	const hosts = Object.keys(HOST_FIELDS) as ServiceHost[];
	return hosts.find((host) => {
		const configured = hostBaseUrl(credentials, host);
		return 'base' in configured && 'url' in sameOriginUrl(url, configured.base, configured.base);
	});
}
