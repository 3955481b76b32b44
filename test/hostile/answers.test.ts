/**
 * How the transport treats the body of an answer, through n8n's engine over real HTTP: a 2xx is never
 * a reason to send again (a text answer is a success, a garbled one fails a write once), and a body
 * that is not text in its charset is an error, never a silent U+FFFD. Each test asserts what the
 * service received (how many requests, which method) and the output item.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunResult } from '../harness/engine';
import { credentialsFor, useHostile } from './server';

const service = useHostile();
const FAST = {
	maxAttempts: 3,
	initialRetryDelay: 10,
	maxTotalWait: 10,
	// Out of reach: a 2 s Timeout cut healthy answers short on a loaded machine; a test of the Timeout sets its own.
	timeout: 600,
	maxRequestsPerSecond: 0,
};
const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
const NOT_SENT_TWICE =
	'not sent twice: the service may already have processed it; check before running it again';

/** Answers every request with `body` (bytes as given) and these headers. */
function answerWith(status: number, body: string | Buffer, headers: Record<string, string> = {}) {
	service.script((_request, res) => {
		res.writeHead(status, { 'Content-Length': Buffer.byteLength(body), ...headers });
		res.end(body);
	});
}

async function customCall(
	method: string,
	extra: INodeParameters = {},
	requestOptions: IDataObject = {},
): Promise<RunResult> {
	return await runNode({
		credentials: credentialsFor(service.origin),
		parameters: {
			resource: 'customApiCall',
			operation: 'send',
			host: 'crm',
			method,
			path: 'notes/n-1',
			body: '{"a": 1}',
			requestOptions: { ...FAST, ...requestOptions },
			...extra,
		},
		onError: 'continueRegularOutput',
	});
}

const outputOf = (result: RunResult) => result.items.map((item) => item.json);
const methodsReceived = () => service.received.map((request) => request.method);

describe('a 2xx is never a reason to send again', () => {
	test.each([
		['DELETE', 'Deleted'],
		['PUT', 'OK'],
		['POST', 'Created'],
		['PATCH', 'Updated'],
	])(
		'%s answered 200 text/plain "%s" is a success: sent once, its text is the output',
		async (method, text) => {
			answerWith(200, text, { 'Content-Type': 'text/plain; charset=utf-8' });
			const result = await customCall(method);

			expect(methodsReceived()).toEqual([method]);
			expect(outputOf(result)).toEqual([{ data: text }]);
		},
	);

	test('GET answered 200 text/csv: one record holding the text, one request', async () => {
		answerWith(200, 'id,name\n1,Ada\n', { 'Content-Type': 'text/csv' });
		const result = await customCall('GET');

		expect(methodsReceived()).toEqual(['GET']);
		expect(outputOf(result)).toEqual([{ data: 'id,name\n1,Ada\n' }]);
	});

	test('Person › Update answered 200 text/plain "OK": one PUT, the text is the output', async () => {
		answerWith(200, 'OK', { 'Content-Type': 'text/plain' });
		const result = await runNode({
			credentials: credentialsFor(service.origin),
			parameters: {
				resource: 'person',
				operation: 'update',
				personId: 'p_1',
				updateFields: { firstName: 'Ada' },
				requestOptions: FAST,
			},
		});

		expect(result.error).toBeUndefined();
		expect(methodsReceived()).toEqual(['PUT']);
		expect(outputOf(result)).toEqual([{ data: 'OK' }]);
	});

	test.each(WRITES)(
		'%s answered 200 application/json that is cut off: sent once, the error says it was processed',
		async (method) => {
			answerWith(200, '{"id":"n-1","na', { 'Content-Type': 'application/json' });
			const result = await customCall(method);

			expect(methodsReceived()).toEqual([method]);
			expect(outputOf(result)).toEqual([
				{
					error:
						'The service answered HTTP 200, so it processed the request, but its answer is not valid JSON (truncated or garbled); it is not sent again: {"id":"n-1","na (item 0)',
					details: expect.any(Object) as unknown,
				},
			]);
		},
	);

	test('DELETE answered 200 "Deleted" with no Content-Type: sent once, an error (undeclared is read as JSON)', async () => {
		service.script((_request, res) => {
			res.removeHeader('Content-Type');
			res.writeHead(200, { 'Content-Length': 7 });
			res.end('Deleted');
		});
		const result = await customCall('DELETE');

		expect(methodsReceived()).toEqual(['DELETE']);
		expect(result.items[0].json.error).toMatch(
			/^The service answered HTTP 200, so it processed the request, but its answer is not valid JSON/,
		);
	});

	test('GET answered 200 application/json that is cut off is retried, as before', async () => {
		answerWith(200, '{"notes":[{"id":', { 'Content-Type': 'application/json' });
		const result = await customCall('GET');

		expect(methodsReceived()).toEqual(['GET', 'GET', 'GET']);
		expect(result.items[0].json.error).toBe(
			'The service answered HTTP 200 with a body that is not valid JSON (truncated or garbled): {"notes":[{"id": (after 3 attempts) (item 0)',
		);
	});

	test.each(WRITES)(
		"%s answered 200 with a proxy's HTML page: sent once, may have been processed",
		async (method) => {
			answerWith(
				200,
				'<!doctype html><html><head><title>Gateway</title></head><body>Please wait</body></html>',
				{ 'Content-Type': 'text/html' },
			);
			const result = await customCall(method);

			expect(methodsReceived()).toEqual([method]);
			expect(result.items[0].json.error).toBe(
				`The service answered HTTP 200 with an HTML page titled "Gateway": Please wait, not JSON (${NOT_SENT_TWICE}) (item 0)`,
			);
		},
	);

	const SEED = Number(process.env.PROPERTY_SEED ?? 28);
	const RUNS = Number(process.env.PROPERTY_RUNS ?? 40);
	test(`property: any write answered with any 2xx, any Content-Type and any body reaches the service once (seed ${SEED}, ${RUNS} runs)`, async () => {
		const bodies = fc.oneof(
			fc.string({ maxLength: 40 }),
			fc.constantFrom('OK', 'Deleted', '', '{"id":"x"}', '{"id":', '[1,2]', '42', 'null'),
			fc.constant('<html><title>Proxy</title></html>'),
			fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes)),
		);
		const contentTypes = fc.constantFrom(
			undefined,
			'application/json',
			'application/json; charset=utf-8',
			'application/problem+json',
			'text/plain',
			'text/html',
			'application/xml',
			'application/octet-stream',
			'text/plain; charset=iso-8859-1',
		);
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom(...WRITES),
				fc.integer({ min: 200, max: 299 }),
				contentTypes,
				bodies,
				async (method, status, contentType, body) => {
					service.received.length = 0;
					answerWith(status, body, contentType ? { 'Content-Type': contentType } : {});
					const result = await customCall(method);

					expect(methodsReceived()).toEqual([method]);
					expect(result.items).toHaveLength(1);
				},
			),
			{ seed: SEED, numRuns: RUNS },
		);
	});

	describe('a write whose answer began with a 2xx status is sent once, whatever then happens to its body', () => {
		/** A 200 that announces 40 bytes, sends 11, and closes (a proxy or a crash cutting it off). */
		const cutOff = () =>
			service.script((_request, res) => {
				res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 40 });
				res.write('{"deleted":');
				setTimeout(() => res.socket?.destroy(), 20);
			});

		test.each(['DELETE', 'PUT'])(
			'%s answered 200 and cut off midway: sent once, the error says it was processed',
			async (method) => {
				cutOff();
				const result = await customCall(method);

				expect(methodsReceived()).toEqual([method]);
				expect(result.items[0].json.error).toBe(
					`The answer was cut off midway (the connection closed before the whole body came), after the service answered HTTP 200: it processed the request (${NOT_SENT_TWICE}) (item 0)`,
				);
			},
		);

		test('PATCH answered 200 and cut off midway: sent once, "may have been processed" as every cut-off PATCH', async () => {
			cutOff();
			const result = await customCall('PATCH');

			expect(methodsReceived()).toEqual(['PATCH']);
			expect(result.items[0].json.error).toBe(
				`The answer was cut off midway (the connection closed before the whole body came) (${NOT_SENT_TWICE}) (item 0)`,
			);
		});

		test('PUT answered 200 headers and then silence: sent once, the error says it was processed', async () => {
			service.script((_request, res) => {
				res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 40 });
				res.write('{"id":');
			});
			const result = await customCall('PUT', {}, { timeout: 1 });

			expect(methodsReceived()).toEqual(['PUT']);
			expect(result.items[0].json.error).toMatch(
				/^The service sent its headers but not the whole body within 1 s \(timeout\), after the service answered HTTP 200: it processed the request \(not sent twice/,
			);
		});

		test('a GET answered 200 and cut off is read again, as before', async () => {
			cutOff();
			const result = await customCall('GET');

			expect(methodsReceived()).toEqual(['GET', 'GET', 'GET']);
			expect(result.items[0].json.error).toMatch(
				/^The answer was cut off midway .*\(after 3 attempts\)/,
			);
		});
	});
});

describe('an answer that is not text in its charset is an error, never a silent U+FFFD', () => {
	const MULLER_LATIN1 = Buffer.from('{"id":"p_1","name":"M\xfcller"}', 'latin1');

	test('undeclared: GET fails at once, naming the byte and where it is, quoting it as ?', async () => {
		answerWith(200, MULLER_LATIN1, { 'Content-Type': 'application/json' });
		const result = await customCall('GET');

		expect(methodsReceived()).toEqual(['GET']);
		expect(result.items[0].json.error).toBe(
			'The service answered HTTP 200 with text that is not valid UTF-8 (the byte 0xFC at offset 21) and declares no charset: {"id":"p_1","name":"M?ller"} (item 0)',
		);
	});

	test('declared utf-8 but not: the error says what it declared', async () => {
		answerWith(200, MULLER_LATIN1, { 'Content-Type': 'application/json; charset=UTF-8' });
		const result = await customCall('GET');

		expect(methodsReceived()).toEqual(['GET']);
		expect(result.items[0].json.error).toMatch(
			/^The service answered HTTP 200 with text that is not valid UTF-8 \(the byte 0xFC at offset 21\), though it declares charset=utf-8: /,
		);
	});

	test('a write answered so is sent once and may have been processed', async () => {
		answerWith(201, MULLER_LATIN1, { 'Content-Type': 'application/json' });
		const result = await customCall('POST');

		expect(methodsReceived()).toEqual(['POST']);
		expect(result.items[0].json.error).toMatch(
			new RegExp(
				`^The service answered HTTP 201 with text that is not valid UTF-8 .*\\(${NOT_SENT_TWICE.replace(/[()]/g, '\\$&')}\\) \\(item 0\\)$`,
			),
		);
	});

	test.each([
		['iso-8859-1', MULLER_LATIN1, 'Müller'],
		['latin1', MULLER_LATIN1, 'Müller'],
		['windows-1252', Buffer.from('{"id":"p_1","name":"\x80 M\xfcller"}', 'latin1'), '€ Müller'],
		['us-ascii', Buffer.from('{"id":"p_1","name":"Muller"}'), 'Muller'],
		['utf-16le', Buffer.from('{"id":"p_1","name":"Müller"}', 'utf16le'), 'Müller'],
	])('charset=%s is honoured', async (charset, body, name) => {
		answerWith(200, body, { 'Content-Type': `application/json; charset=${charset}` });
		const result = await customCall('GET');

		expect(methodsReceived()).toEqual(['GET']);
		expect(outputOf(result)).toEqual([{ id: 'p_1', name }]);
	});

	test('valid UTF-8 (also a character split across chunks) reads as before', async () => {
		const bytes = Buffer.from('{"id":"p_1","name":"Zoë Ångström 東京 😀"}');
		service.script((_request, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': bytes.length });
			const split = bytes.indexOf(Buffer.from('東')) + 1;
			res.write(bytes.subarray(0, split));
			setTimeout(() => res.end(bytes.subarray(split)), 20);
		});
		const result = await customCall('GET');

		expect(outputOf(result)).toEqual([{ id: 'p_1', name: 'Zoë Ångström 東京 😀' }]);
	});

	test("an error status's text is shown with U+FFFD and is classified by its status, as before", async () => {
		answerWith(503, Buffer.from('Service indisponible: r\xe9essayez', 'latin1'), {
			'Content-Type': 'text/plain',
		});
		const result = await customCall('GET');

		expect(methodsReceived()).toEqual(['GET', 'GET', 'GET']);
		expect(result.items[0].json.error).toBe(
			'The service had an internal error (HTTP 503): Service indisponible: r\ufffdessayez (after 3 attempts) (item 0)',
		);
	});
});
