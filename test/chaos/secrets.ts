/**
 * No secret leaves the node: the access token, the client secret and every token the service saw
 * (a signed one is new every second), in any form a service, a proxy or a cursor could carry it.
 */
import type { RunResult } from '../harness/engine';
import { CLIENT_SECRET, TOKEN, type Drawn } from './service';

const fail = (message: string): never => {
	throw new Error(message);
};

/** Every form in which a secret must not leave the node: plain, escaped, percent- and form-encoded, base64 at any alignment. */
export function forms(secret: string): string[] {
	const bytes = Buffer.from(secret);
	const found = [
		secret,
		JSON.stringify(secret).slice(1, -1),
		secret
			.replace(/&/g, '&amp;')
			.replace(/</g, '&lt;')
			.replace(/>/g, '&gt;')
			.replace(/"/g, '&quot;'),
		encodeURIComponent(secret),
		new URLSearchParams({ s: secret }).toString().slice(2),
	];
	for (const alphabet of ['base64', 'base64url'] as const) {
		found.push(bytes.toString(alphabet).replace(/=+$/, ''));
		for (let offset = 0; offset < 3; offset++) {
			const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(alphabet);
			found.push(
				encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6)),
			);
		}
	}
	return [...new Set(found)].filter((form) => form.length >= 8);
}

/** Every text in a value, keys too. */
function texts(value: unknown, into: string[] = []): string[] {
	if (typeof value === 'string') into.push(value);
	else if (value && typeof value === 'object')
		for (const [key, inner] of Object.entries(value)) {
			into.push(key);
			texts(inner, into);
		}
	return into;
}

/** A text as it is, percent-decoded, and each base64 run in it decoded (a cursor is base64url JSON). */
function readings(text: string): string[] {
	const found = [text];
	try {
		found.push(decodeURIComponent(text));
	} catch {
		// Not percent-encoding: read as it is.
	}
	for (const run of text.match(/[A-Za-z0-9+/_-]{16,}/g) ?? []) {
		const decoded = Buffer.from(run, 'base64').toString('utf8');
		found.push(decoded);
		try {
			found.push(decodeURIComponent(decoded));
		} catch {
			// Only the decoded text, then.
		}
	}
	return found;
}

/**
 * No secret in any output item or error, in any encoding; no replacement character either. `more`:
 * the run's write-only values (a user's password), kept out as the credential's secrets are.
 */
export function noSecret(drawn: Drawn[], result: RunResult, more: string[] = []): void {
	const seen = drawn.map(({ request }) =>
		String(request.headers.authorization ?? '').replace(/^Bearer /, ''),
	);
	const secrets = [...new Set([TOKEN, CLIENT_SECRET, ...seen, ...more])].filter(
		(s) => s.length >= 8,
	);
	const all = secrets.flatMap(forms);
	const { items, errorItems, error } = result;
	for (const text of texts({ items: items.map((i) => i.json), errorItems, error })) {
		if (text.includes('\uFFFD'))
			fail(`the output holds a replacement character: ${text.slice(0, 120)}`);
		for (const reading of readings(text))
			if (all.some((form) => reading.includes(form)))
				fail(`a form of a secret is in the output: ${text.slice(0, 120)}`);
	}
}
