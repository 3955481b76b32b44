import type { IDataObject } from 'n8n-workflow';

import type { ServiceHost } from '../shared/service';
import { hostBaseUrl, hostOfUrl, originOf, sameListUrl } from '../shared/service';

const NOT_READ = 'it is not read with your token';

/**
 * Whether a path holds a "." or ".." segment in any encoding: percent-encoded once or more (`%2e`,
 * `%252e`), or behind an encoded separator (`people%2F..`), which a server may decode before routing.
 */
function hasDotSegment(path: string): boolean {
	let text = path;
	for (let round = 0; round < 4; round++) {
		if (text.split(/[/\\]/).some((part) => part === '.' || part === '..')) return true;
		let decoded: string;
		try {
			decoded = decodeURIComponent(text);
		} catch {
			decoded = text.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
		}
		if (decoded === text) return false;
		text = decoded;
	}
	return true; // Encoded over and over: no event's uri looks like that.
}

/**
 * The credential's host on the uri's origin, a path under its base (with or without `/api`) and no
 * dot segment; else why not, for a 422 with nothing sent: the uri is read with our token.
 */
export function eventUriHost(
	credentials: IDataObject,
	uri: string,
): { host: ServiceHost } | { refused: string } {
	const host = hostOfUrl(credentials, uri);
	const configured = host === undefined ? undefined : hostBaseUrl(credentials, host);
	if (host === undefined || configured === undefined || !('base' in configured)) {
		return {
			refused: `The event's uri is on ${originOf(uri)}, which is none of the credential's hosts; ${NOT_READ}`,
		};
	}
	const { base } = configured;
	const basePath = `${new URL(base).pathname.replace(/\/+$/, '')}/`;
	const path = new URL(uri, base).pathname;
	const checked = sameListUrl(uri, base, base, path);
	const problem =
		'otherList' in checked || 'refused' in checked
			? 'otherList' in checked
				? checked.otherList
				: `it is on ${checked.refused}`
			: hasDotSegment(uri.split(/[?#]/, 1)[0])
				? 'it has a "." or ".." segment'
				: !`${path}/`.startsWith(basePath)
					? `its path is not under ${basePath}`
					: undefined;
	if (problem !== undefined) {
		return { refused: `The event's uri on ${originOf(uri)} is refused: ${problem}; ${NOT_READ}` };
	}
	return { host };
}
