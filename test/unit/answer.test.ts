/**
 * Reading an answer: its body (transport/body.ts `readBody`, on streams made here) comes back whole as
 * text however it is cut into chunks, stops being read at the bound, and a stream that ends without
 * its 'end' (closed early, broken, or closed already) is an error, never a short answer; its bytes are
 * read as its charset, strictly (answer.ts); and what a 2xx becomes. One place for the rule (this was
 * readBody.test.ts and answer.test.ts). The engine suite (test/hostile/answers.test.ts, deadline.test.ts)
 * checks the same over real sockets.
 */
import { PassThrough } from 'stream';

import fc from 'fast-check';
import type { IHttpRequestMethods } from 'n8n-workflow';

import type { Undecodable } from '../../nodes/IntegrationService/transport/answer';
import {
	decodeText,
	firstInvalidUtf8,
	parseRecord,
} from '../../nodes/IntegrationService/transport/answer';
import { readBody, TooLarge } from '../../nodes/IntegrationService/transport/answer';

const PROPERTY = { seed: 28, numRuns: 500 };
const WRITES: IHttpRequestMethods[] = ['POST', 'PUT', 'PATCH', 'DELETE'];
const CONTENT_TYPES = [
	'',
	'application/json',
	'application/json; charset=utf-8',
	'application/vnd.api+json',
	'text/plain',
	'text/html; charset=utf-8',
	'application/xml',
	'text/csv',
];

function undecodable(bytes: Uint8Array, contentType = ''): Undecodable {
	const decoded = decodeText(bytes, contentType);
	if (typeof decoded === 'string') throw new Error(`decoded as ${decoded}`);
	return decoded;
}

function streamOf(chunks: Array<Buffer | string>): PassThrough {
	const stream = new PassThrough();
	for (const chunk of chunks) stream.write(chunk);
	stream.end();
	return stream;
}

describe('readBody', () => {
	it('joins chunks into one text, also a character split across two chunks', async () => {
		const bytes = Buffer.from('{"name":"Zoë Ångström"}');
		const split = bytes.indexOf(Buffer.from('ë')) + 1;
		const stream = streamOf([bytes.subarray(0, split), bytes.subarray(split)]);
		await expect(readBody(stream, 1024)).resolves.toBe('{"name":"Zoë Ångström"}');
	});

	it('reads an answer of exactly the bound, and refuses one byte more without reading on', async () => {
		await expect(readBody(streamOf(['abc', 'de']), 5)).resolves.toBe('abcde');
		const larger = streamOf(['abc', 'def', 'ghi']);
		await expect(readBody(larger, 5)).rejects.toBeInstanceOf(TooLarge);
		expect(larger.destroyed).toBe(true);
	});

	it('an answer closed before its end is an error, not the part that came', async () => {
		const stream = new PassThrough();
		stream.write('{"people":[');
		const reading = readBody(stream, 1024);
		stream.destroy();
		await expect(reading).rejects.toThrow('closed before its end');
	});

	it('an answer that breaks off with an error rejects with that error', async () => {
		const stream = new PassThrough();
		stream.write('{"people":[');
		const reading = readBody(stream, 1024);
		stream.destroy(new Error('socket hang up'));
		await expect(reading).rejects.toThrow('socket hang up');
	});

	it('an answer whose stream was closed before reading began is an error', async () => {
		const stream = new PassThrough();
		stream.destroy();
		await new Promise((resolve) => setImmediate(resolve));
		await expect(readBody(stream, 1024)).rejects.toThrow('closed before its end');
	});

	it('an empty answer, a string and a Buffer are read as they are', async () => {
		await expect(readBody(streamOf([]), 10)).resolves.toBe('');
		await expect(readBody('{"a":1}', 10)).resolves.toBe('{"a":1}');
		await expect(readBody(Buffer.from('{"a":1}'), 10)).resolves.toBe('{"a":1}');
		await expect(readBody('x'.repeat(11), 10)).rejects.toBeInstanceOf(TooLarge);
	});

	it('decodes the whole answer as its declared charset, strictly: a byte that is not text is said, not replaced', async () => {
		const latin1 = Buffer.from('{"name":"M\xfcller"}', 'latin1');
		await expect(
			readBody(
				streamOf([latin1.subarray(0, 12), latin1.subarray(12)]),
				1024,
				'application/json; charset=iso-8859-1',
			),
		).resolves.toBe('{"name":"Müller"}');
		await expect(readBody(streamOf([latin1]), 1024, 'application/json')).resolves.toHaveProperty(
			'problem',
		);
		await expect(readBody(latin1, 1024)).resolves.toHaveProperty('problem');
	});
});

describe('decodeText', () => {
	it('reads UTF-8 when nothing is declared, and keeps a byte order mark (an answer with one is not JSON, as before)', () => {
		expect(decodeText(Buffer.from('{"name":"Zoë 東京 😀"}'))).toBe('{"name":"Zoë 東京 😀"}');
		expect(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBe('\ufeff{}');
	});

	it('a byte that is not UTF-8 is an error naming it and its offset, with the text as U+FFFD shows it', () => {
		const error = undecodable(Buffer.from('M\xfcller', 'latin1'), 'text/plain');
		expect(error.problem).toBe(
			'not valid UTF-8 (the byte 0xFC at offset 1) and declares no charset',
		);
		expect(error.text).toBe('M\ufffdller');
		expect(
			undecodable(Buffer.from('M\xfcller', 'latin1'), 'text/plain; charset="UTF-8"').problem,
		).toBe('not valid UTF-8 (the byte 0xFC at offset 1), though it declares charset=utf-8');
	});

	it.each([
		['iso-8859-1', [0x4d, 0xfc], 'Mü'],
		['ISO-8859-1', [0xe9], 'é'],
		['latin1', [0xe9], 'é'],
		['us-ascii', [0x41], 'A'],
		['windows-1252', [0x80, 0x93, 0x94, 0x9f, 0xff], '€“”Ÿÿ'],
		['cp1252', [0x85], '…'],
		['utf-16le', [0x4d, 0x00, 0xfc, 0x00], 'Mü'],
		['utf-16be', [0x00, 0x4d, 0x00, 0xfc], 'Mü'],
	])('honours charset=%s', (charset, bytes, text) => {
		expect(decodeText(Uint8Array.from(bytes), `application/json; charset=${charset}`)).toBe(text);
	});

	it('an unknown charset is read as UTF-8, strictly', () => {
		expect(decodeText(Buffer.from('ü'), 'text/plain; charset=utf8mb4')).toBe('ü');
		expect(undecodable(Buffer.from([0xfc]), 'text/plain; charset=utf8mb4').problem).toMatch(
			/^not valid UTF-8 .*, though it declares charset=utf8mb4$/,
		);
	});

	it('UTF-16 that is not (a lone surrogate) is an error too', () => {
		const error = undecodable(
			Uint8Array.from([0x00, 0xd8, 0x41, 0x00]),
			'text/plain; charset=utf-16le',
		);
		expect(error.problem).toBe('not valid UTF-16LE, though it declares charset=utf-16le');
	});

	it('property: any text encoded as UTF-8 reads back as itself', () => {
		fc.assert(
			// Any code point but a lone surrogate, as string({ unit: 'binary' }) gives, without the map of
			// every code point fast-check 3 builds for that unit (0.7 s of this file's 1 s).
			fc.property(fc.fullUnicodeString({ maxLength: 60 }), (text) => {
				expect(decodeText(Buffer.from(text, 'utf8'))).toBe(text);
			}),
			PROPERTY,
		);
	});

	it('property: any bytes either read as Buffer does, or fail at the first byte Buffer replaces', () => {
		const bytes = fc.array(
			fc.oneof(
				fc.integer({ min: 0, max: 255 }),
				fc.constantFrom(0x41, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f),
			),
			{ maxLength: 24 },
		);
		fc.assert(
			fc.property(bytes, (list) => {
				const buffer = Buffer.from(list);
				const lenient = buffer.toString('utf8');
				const offset = firstInvalidUtf8(buffer);
				if (offset < 0) {
					expect(decodeText(buffer)).toBe(lenient);
					return;
				}
				const error = undecodable(buffer);
				const byte = list[offset].toString(16).toUpperCase().padStart(2, '0');
				expect(error.problem).toContain(`(the byte 0x${byte} at offset ${offset})`);
				expect(error.text).toBe(lenient);
				// Everything before it is valid UTF-8, and it is where the first U+FFFD stands.
				const before = decodeText(buffer.subarray(0, offset));
				if (typeof before !== 'string') throw new Error('the part before it is not UTF-8');
				expect(lenient.slice(0, before.length)).toBe(before);
				expect(lenient[before.length]).toBe('\ufffd');
			}),
			PROPERTY,
		);
	});
});

describe('parseRecord: what a 2xx becomes', () => {
	const parse = (method: IHttpRequestMethods, text: string, contentType = 'application/json') =>
		parseRecord(method, 200, text, contentType, []);

	it('a JSON object is the record; an empty body is {}', () => {
		expect(parse('PUT', '{"id":"p_1"}')).toEqual({ json: { id: 'p_1' } });
		expect(parse('DELETE', '  ', 'text/plain')).toEqual({ json: {} });
	});

	it.each(['GET', ...WRITES] as IHttpRequestMethods[])(
		'%s: a text of a type that is not JSON or HTML is a success, kept as { data }',
		(method) => {
			expect(parse(method, 'Deleted', 'text/plain; charset=utf-8')).toEqual({
				json: { data: 'Deleted' },
			});
			expect(parse(method, '<ok/>', 'application/xml')).toEqual({ json: { data: '<ok/>' } });
		},
	);

	it('JSON that does not parse: a read is retried, a write is not and was processed', () => {
		expect(parse('GET', '{"id":')).toEqual({
			failure: {
				status: 200,
				message:
					'The service answered HTTP 200 with a body that is not valid JSON (truncated or garbled): {"id":',
				retryable: true,
				mayHaveBeenProcessed: false,
			},
		});
		for (const contentType of ['application/json', '', 'application/problem+json'])
			expect(parse('PUT', '{"id":', contentType)).toEqual({
				failure: {
					status: 200,
					message:
						'The service answered HTTP 200, so it processed the request, but its answer is not valid JSON (truncated or garbled); it is not sent again: {"id":',
					retryable: false,
					// Processed: a model is told to look it up (errors.ts nextStep), not that it will fail again.
					processed: true,
				},
			});
	});

	it("a proxy's HTML page: an error, retried on a read only", () => {
		const page = '<html><title>Login</title><body>Sign in</body></html>';
		const expected = (retryable: boolean) => ({
			failure: {
				status: 200,
				message:
					'The service answered HTTP 200 with an HTML page titled "Login": Sign in, not JSON',
				retryable,
				mayHaveBeenProcessed: !retryable,
			},
		});
		expect(parse('GET', page, 'text/html')).toEqual(expected(true));
		expect(parse('DELETE', page, 'text/html')).toEqual(expected(false));
		expect(parse('PUT', page, '')).toEqual(expected(false));
	});

	it('a JSON list or plain value where a record is expected: not retried, as before', () => {
		const list = parse('POST', '[1]');
		expect(list).toMatchObject({
			failure: { retryable: false, mayHaveBeenProcessed: true },
		});
		expect(parse('GET', '"Deleted"', 'text/plain')).toMatchObject({
			failure: {
				message:
					'The service answered HTTP 200 with a plain JSON value where a record was expected: "Deleted"',
				retryable: false,
			},
		});
	});

	it('property: a 2xx to a write is never retried, whatever its type and body', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...WRITES),
				fc.integer({ min: 200, max: 299 }),
				fc.constantFrom(...CONTENT_TYPES),
				fc.oneof(fc.string(), fc.json(), fc.constantFrom('<html>x</html>', '{"a":', 'OK')),
				(method, status, contentType, text) => {
					const outcome = parseRecord(method, status, text, contentType, []);
					if ('failure' in outcome) expect(outcome.failure.retryable).toBe(false);
				},
			),
			PROPERTY,
		);
	});
});
