import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { AttemptFailure } from './errors';
import { htmlText, isRead, looksLikeHtml, shorten, uncertainFailure } from './errors';
import { redactAnswer } from './secrets';

/** An answer's body read bounded as it arrives, decoded strictly (never a silent U+FFFD); what a 2xx becomes. */

export type Outcome = { json: IDataObject } | { failure: AttemptFailure };

/** A body that is not text in its charset: what is wrong with it, and the text each wrong byte as U+FFFD. */
export type Undecodable = { problem: string; text: string };

type Decoder = Pick<InstanceType<typeof TextDecoder>, 'decode' | 'encoding'>;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LENIENT_UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** What windows-1252 puts at 0x80 to 0x9F (the Encoding Standard's table; the rest is Latin-1). */
const CP1252_HIGH = [
	0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152,
	0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122,
	0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
].map((code) => String.fromCharCode(code));

/** windows-1252 (also iso-8859-1, latin1, us-ascii): Node 20's TextDecoder reads 0x80-0x9F as Latin-1. */
const WINDOWS_1252: Decoder = {
	encoding: 'windows-1252',
	decode: (bytes) =>
		Buffer.from(bytes as Uint8Array)
			.toString('latin1')
			.replace(/[\x80-\x9f]/g, (char) => CP1252_HIGH[char.charCodeAt(0) - 0x80]),
};

/** The decoder for a declared charset the Encoding Standard names, else UTF-8; a BOM is kept (no JSON then). */
function decoderFor(charset: string | undefined, fatal: boolean): Decoder {
	if (charset !== undefined && !/^utf-?8$/.test(charset)) {
		try {
			const decoder = new TextDecoder(charset, { fatal, ignoreBOM: true });
			return decoder.encoding === 'windows-1252' ? WINDOWS_1252 : decoder;
		} catch {
			// A label the runtime does not know (e.g. utf8mb4) is read as UTF-8.
		}
	}
	return fatal ? STRICT_UTF8 : LENIENT_UTF8;
}

/** The offset of the first byte that is not part of well-formed UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
	const text = LENIENT_UTF8.decode(bytes);
	for (let at = text.indexOf('\uFFFD'); at >= 0; at = text.indexOf('\uFFFD', at + 1)) {
		// Every U+FFFD before the first wrong byte is one the bytes spell out (3 bytes each).
		const offset = Buffer.byteLength(text.slice(0, at));
		if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd)
			return offset;
	}
	return -1;
}

/** The body as text in its declared charset (UTF-8 when none), or why it is not text in it. */
export function decodeText(bytes: Uint8Array, contentType = ''): string | Undecodable {
	const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
	const charset = match ? match[1].toLowerCase().slice(0, 40) : undefined;
	const decoder = decoderFor(charset, true);
	try {
		return decoder.decode(bytes);
	} catch {
		// Not text in this charset: said below.
	}
	const offset = decoder.encoding === 'utf-8' ? firstInvalidUtf8(bytes) : -1;
	const byte = bytes[offset]?.toString(16).toUpperCase().padStart(2, '0');
	const where = offset >= 0 ? ` (the byte 0x${byte} at offset ${offset})` : '';
	const declared = charset ? `, though it declares charset=${charset}` : ' and declares no charset';
	const problem = `not valid ${decoder.encoding.toUpperCase()}${where}${declared}`;
	return { problem, text: decoderFor(charset, false).decode(bytes) };
}

/** The value a JSON text holds, or undefined when it is not JSON. */
export function jsonOf(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** The part of a Node stream the body is read through. */
interface Readable {
	on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
	on(event: 'end' | 'close', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
	destroy(error?: Error): void;
	readonly destroyed?: boolean;
}

export function isStream(body: unknown): body is Readable {
	const stream = body as Readable;
	return !!body && typeof stream.destroy === 'function' && typeof stream.on === 'function';
}

export class TooLarge extends Error {}

/** One error for every cut-off answer: a new one each time would capture a stack. */
const CUT_OFF = new Error('The answer closed before its end');

/** Reads the body up to `maxBytes` as it arrives (after decompression), then decodes it whole. */
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
	// 'data' events, not `for await`: the async iterator cost n8n about 55 MiB more RSS on a large list.
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
		// After 'end' the promise is settled and this does nothing.
		body.on('close', reject.bind(undefined, CUT_OFF));
	});
	return decodeText(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size), contentType);
}

/**
 * A 2xx where a record is expected: a JSON object is the record, an empty body `{}`, a text of
 * another type (`text/plain` "Deleted") `{ data }`, as n8n's HTTP Request node names it. A 2xx never
 * sends a write again; a read is retried on JSON that does not parse. What is output holds no form
 * of a secret the attempt knows (`forms`).
 */
export function parseRecord(
	method: IHttpRequestMethods,
	status: number,
	text: string,
	contentType: string,
	forms: readonly string[],
): Outcome {
	if (text.trim() === '') return { json: {} };
	const parsed = jsonOf(text);
	if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
		return { json: redactAnswer(parsed as IDataObject, text, forms) };
	const type = contentType.split(';')[0].trim().toLowerCase();
	const json = type === 'application/json' || type.endsWith('+json');
	const html = type === 'text/html' || type === 'application/xhtml+xml';
	if (parsed === undefined && type !== '' && !json && !html)
		return { json: { data: redactAnswer(text, text, forms) } };
	const read = isRead(method);
	if (looksLikeHtml(text, contentType)) {
		// A proxy's page: whether the service got the request is unknown.
		const message = `The service answered HTTP ${status} with ${shorten(htmlText(text), forms)}, not JSON`;
		const retryable = read && parsed === undefined;
		return { failure: { status, message, retryable, mayHaveBeenProcessed: !read } };
	}
	if (parsed === undefined && read) {
		const message = `The service answered HTTP ${status} with a body that is not valid JSON (truncated or garbled): ${shorten(text, forms)}`;
		return { failure: uncertainFailure(method, message, { status }) };
	}
	if (parsed === undefined) {
		const message = `The service answered HTTP ${status}, so it processed the request, but its answer is not valid JSON (truncated or garbled); it is not sent again: ${shorten(text, forms)}`;
		return { failure: { status, message, retryable: false, processed: true } };
	}
	const what = Array.isArray(parsed) ? 'a JSON list' : 'a plain JSON value';
	const message = `The service answered HTTP ${status} with ${what} where a record was expected: ${shorten(text, forms)}`;
	return { failure: { ...uncertainFailure(method, message, { status }), retryable: false } };
}
