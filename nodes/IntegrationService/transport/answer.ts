import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { AttemptFailure } from './errors';
import { htmlText, looksLikeHtml, shorten, uncertainFailure } from './errors';
import { redactAnswer } from './secrets';

/**
 * What an answer's body says: read as it arrives, bounded in size; its bytes read as its declared
 * charset, strictly (a byte that is not text is an error, never a silent U+FFFD); and what a 2xx
 * becomes: a record, a text, or a failure that is sent again only when it was a read.
 */

export type Outcome = { json: IDataObject } | { failure: AttemptFailure };

// Decoding

/** Why a body is not text in its charset; `text` is what it reads as with U+FFFD for each wrong byte. */
export class Undecodable {
	constructor(
		/** The encoding it was read as (the Encoding Standard's name, e.g. "utf-8"). */
		readonly encoding: string,
		/** The charset the answer declared, if any. */
		readonly declared: string | undefined,
		readonly text: string,
		/** Where the first wrong byte is and what it is (UTF-8 only). */
		readonly first?: { offset: number; byte: number },
	) {}
}

type Decoder = Pick<InstanceType<typeof TextDecoder>, 'decode' | 'encoding'>;

/** One of each, reused: decoding without `stream` keeps no state between calls. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LENIENT_UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** What windows-1252 puts at 0x80 to 0x9F (the Encoding Standard's table; the rest is Latin-1). */
const CP1252_HIGH = [
	0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152,
	0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122,
	0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
].map((code) => String.fromCharCode(code));

/**
 * windows-1252, which the Encoding Standard also reads iso-8859-1, latin1 and us-ascii as. Our own:
 * Node 20's TextDecoder reads 0x80 to 0x9F as Latin-1 control characters (`€` became U+0080).
 */
const WINDOWS_1252: Decoder = {
	encoding: 'windows-1252',
	decode: (bytes) =>
		Buffer.from(bytes as Uint8Array)
			.toString('latin1')
			.replace(/[\x80-\x9f]/g, (char) => CP1252_HIGH[char.charCodeAt(0) - 0x80]),
};

/** The `charset` parameter of a Content-Type, lower-case; undefined when there is none. */
function charsetOf(contentType: string): string | undefined {
	const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
	return match ? match[1].toLowerCase().slice(0, 40) : undefined;
}

/**
 * The decoder for a declared charset: any the Encoding Standard names (iso-8859-1, latin1, us-ascii
 * and windows-1252 all read as windows-1252; utf-16le/be), else UTF-8. A byte order mark is kept:
 * an answer that starts with one is not JSON, as before.
 */
function decoderFor(charset: string | undefined, fatal: boolean): Decoder {
	if (charset !== undefined && !/^utf-?8$/.test(charset)) {
		try {
			const decoder = new TextDecoder(charset, { fatal, ignoreBOM: true });
			return decoder.encoding === 'windows-1252' ? WINDOWS_1252 : decoder;
		} catch {
			// A label the runtime does not know (e.g. utf8mb4) is read as UTF-8, strictly.
		}
	}
	return fatal ? STRICT_UTF8 : LENIENT_UTF8;
}

/** The offset of the first byte that is not part of a well-formed UTF-8 character, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
	for (let at = 0; at < bytes.length; ) {
		const lead = bytes[at];
		if (lead < 0x80) {
			at++;
			continue;
		}
		// The continuation bytes a lead byte needs, and the range of the first (no overlong form, no surrogate, nothing past U+10FFFF).
		let needs: number;
		let [low, high] = [0x80, 0xbf];
		if (lead >= 0xc2 && lead <= 0xdf) needs = 1;
		else if (lead >= 0xe0 && lead <= 0xef) {
			needs = 2;
			if (lead === 0xe0) low = 0xa0;
			if (lead === 0xed) high = 0x9f;
		} else if (lead >= 0xf0 && lead <= 0xf4) {
			needs = 3;
			if (lead === 0xf0) low = 0x90;
			if (lead === 0xf4) high = 0x8f;
		} else return at;
		for (let next = 1; next <= needs; next++) {
			const byte = bytes[at + next];
			if (byte === undefined || byte < low || byte > high) return at;
			[low, high] = [0x80, 0xbf];
		}
		at += needs + 1;
	}
	return -1;
}

/** The body as text in its declared charset (UTF-8 when none), or why it is not text in it. */
export function decodeText(bytes: Uint8Array, contentType = ''): string | Undecodable {
	// Most answers declare no charset: UTF-8, strictly.
	const charset = contentType.includes('charset') ? charsetOf(contentType) : undefined;
	const decoder = charset === undefined ? STRICT_UTF8 : decoderFor(charset, true);
	try {
		return decoder.decode(bytes);
	} catch {
		// A byte that is not text in this charset: said below, with where it is.
	}
	const text = decoderFor(charset, false).decode(bytes);
	const offset = decoder.encoding === 'utf-8' ? firstInvalidUtf8(bytes) : -1;
	const first = offset >= 0 ? { offset, byte: bytes[offset] } : undefined;
	return new Undecodable(decoder.encoding, charset, text, first);
}

/**
 * A 2xx that is not text in its charset: not sent again (repeating brings the same bytes); a write may
 * have been processed. The quoted text shows each undecodable sequence as `?`, never as U+FFFD, which
 * would pass for a character the service sent.
 */
export function undecodableFailure(
	method: IHttpRequestMethods,
	status: number,
	error: Undecodable,
	forms: readonly string[],
): AttemptFailure {
	const where = error.first
		? ` (the byte 0x${error.first.byte.toString(16).toUpperCase().padStart(2, '0')} at offset ${error.first.offset})`
		: '';
	const declared =
		error.declared === undefined
			? ' and declares no charset'
			: `, though it declares charset=${error.declared}`;
	const read = method === 'GET' || method === 'HEAD';
	return {
		status,
		message: `The service answered HTTP ${status} with text that is not valid ${error.encoding.toUpperCase()}${where}${declared}: ${shorten(error.text.replace(/\uFFFD/g, '?'), forms)}`,
		retryable: false,
		mayHaveBeenProcessed: !read,
	};
}

// Reading the body

export interface Readable {
	on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
	on(event: 'end' | 'close', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
	destroy(error?: Error): void;
	readonly destroyed?: boolean;
}

export function isStream(body: unknown): body is Readable {
	return (
		!!body &&
		typeof (body as Readable).destroy === 'function' &&
		typeof (body as Readable).on === 'function'
	);
}

export class TooLarge extends Error {}

/** An answer that closed before its end; one for all, as each new error would capture a stack. */
const CUT_OFF = new Error('The answer closed before its end');

/**
 * Reads the body up to `maxBytes` (counted after decompression, as it arrives); larger is an error, not
 * a buffer. The whole body is then decoded at once as its Content-Type's charset (so a character split
 * across chunks stays whole), strictly: a body with a byte that is not text gives Undecodable.
 */
export async function readBody(
	body: unknown,
	maxBytes: number,
	contentType = '',
): Promise<string | Undecodable> {
	if (typeof body === 'string') {
		if (Buffer.byteLength(body) > maxBytes) throw new TooLarge();
		return body;
	}
	if (Buffer.isBuffer(body)) {
		if (body.length > maxBytes) throw new TooLarge();
		return decodeText(body, contentType);
	}
	if (!isStream(body)) return body === undefined || body === null ? '' : String(body);
	// Read by 'data' events, not `for await`: in the real app a Return All of 50,000 people grew n8n's
	// RSS by about 230 MiB through the stream's async iterator, and by about 175 MiB, as much as the
	// benchmark's floor node, this way.
	const chunks: Buffer[] = [];
	let size = 0;
	await new Promise<void>((resolve, reject) => {
		if (body.destroyed) reject(CUT_OFF);
		body.on('data', (chunk) => {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			size += buffer.length;
			if (size > maxBytes) {
				reject(new TooLarge());
				body.destroy();
			} else chunks.push(buffer);
		});
		body.on('end', resolve);
		body.on('error', reject);
		// Closed before its end: cut off. After 'end' the promise is settled and this does nothing.
		body.on('close', reject.bind(undefined, CUT_OFF));
	});
	// One chunk (most answers) is decoded as it is: no copy.
	return decodeText(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size), contentType);
}

// A 2xx answer

/** How a Content-Type declares the body: JSON (`application/json`, `*+json`), HTML, another type, or none. */
function declaredAs(contentType: string): 'json' | 'html' | 'other' | 'none' {
	const type = contentType.split(';')[0].trim().toLowerCase();
	if (type === '') return 'none';
	if (type === 'application/json' || type.endsWith('+json')) return 'json';
	if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
	return 'other';
}

/**
 * A 2xx answer where a record is expected. A JSON object is the record; an empty body is `{}`; a body
 * of another type that is not JSON (`text/plain` "Deleted") is a success whose text is kept, as
 * `{ data }` (n8n's HTTP Request node's name for a text answer). A 2xx is never a reason to send a
 * write again: the service took it. JSON that does not parse, or an HTML page, is retried on a read.
 * What is output is redacted: no form of a secret the attempt knows (`forms`) leaves the node.
 */
export function parseRecord(
	method: IHttpRequestMethods,
	status: number,
	text: string,
	contentType: string,
	forms: readonly string[],
): Outcome {
	if (text.trim() === '') return { json: {} };
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	// What is output holds no secret of the credential or token sent (secrets.ts).
	if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
		return { json: redactAnswer(parsed as IDataObject, text, forms) };
	if (parsed === undefined && declaredAs(contentType) === 'other')
		return { json: { data: redactAnswer(text, text, forms) } };
	const read = method === 'GET' || method === 'HEAD';
	if (looksLikeHtml(text, contentType)) {
		// A proxy's page: whether the service got the request is unknown; a write is not sent again.
		const message = `The service answered HTTP ${status} with ${shorten(htmlText(text), forms)}, not JSON`;
		return {
			failure: {
				status,
				message,
				retryable: read && parsed === undefined,
				mayHaveBeenProcessed: !read,
			},
		};
	}
	if (parsed === undefined) {
		// Garbled on the way is a network fault: a read is repeated; a write was taken (2xx) and is not.
		if (read) {
			const message = `The service answered HTTP ${status} with a body that is not valid JSON (truncated or garbled): ${shorten(text, forms)}`;
			return { failure: uncertainFailure(method, message, { status }) };
		}
		const message = `The service answered HTTP ${status}, so it processed the request, but its answer is not valid JSON (truncated or garbled); it is not sent again: ${shorten(text, forms)}`;
		return { failure: { status, message, retryable: false, processed: true } };
	}
	const what = Array.isArray(parsed) ? 'a JSON list' : 'a plain JSON value';
	const failure = uncertainFailure(
		method,
		`The service answered HTTP ${status} with ${what} where a record was expected: ${shorten(text, forms)}`,
		{ status },
	);
	return { failure: { ...failure, retryable: false } };
}
