/**
 * The attempt's deadline and the HTTP parser, attacked with raw bytes: headers and then silence, a
 * body shorter than its Content-Length, an unterminated chunked body, 40 KB of headers, a status line
 * that is not HTTP. Every case checks the attempts that reached the service, how long each held its
 * connection past the Timeout, that no connection is left open, and the error the user reads.
 */
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunResult } from '../harness/engine';
import { VALID } from '../reliability/helpers';
import { startRawServer, type RawServer } from './raw-server';
import { credentialsFor } from './server';

const TIMEOUT_S = 1;
const FAST = {
	maxAttempts: 3,
	initialRetryDelay: 10,
	maxTotalWait: 10,
	timeout: TIMEOUT_S,
	maxRequestsPerSecond: 0,
};

let service: RawServer;
beforeAll(async () => {
	service = await startRawServer();
});
afterAll(async () => await service.close());
beforeEach(() => {
	service.requests.length = 0;
});

function credentials(): ICredentialDataDecryptedObject {
	return credentialsFor(service.origin, {
		credentialId: 'cred-raw',
		accessToken: 'raw-token-123456',
	});
}

async function run(
	parameters: INodeParameters,
	cancelAfterMs?: number,
): Promise<RunResult & { ms: number }> {
	const started = Date.now();
	const result = await runNode({
		parameters: { ...parameters, requestOptions: FAST },
		credentials: credentials(),
		cancelAfterMs,
	});
	return { ...result, ms: Date.now() - started };
}

/** Waits until the server has seen every connection close (the client let go); jest's timeout bounds it. */
async function settled(): Promise<void> {
	while (service.openConnections() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * Each attempt let go of its connection, and none is left open. The server never closes one, so a
 * closed connection is the client's doing, and the error (written only by the deadline) says why. How
 * soon after the Timeout it let go depends on the machine's speed: that bound is the chaos suite's
 * (npm run test:soak).
 */
async function expectEveryAttemptLetGo(): Promise<void> {
	await settled();
	expect(service.openConnections()).toBe(0);
	for (const request of service.requests)
		expect(request.closedAt).toBeGreaterThanOrEqual(request.readAt);
}

const HEAD = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n';
const SILENT_AFTER_HEADERS = {
	'a Content-Length longer than the body': `${HEAD}Content-Length: 1000\r\n\r\n{"id":`,
	'an unterminated chunked body': `${HEAD}Transfer-Encoding: chunked\r\n\r\n6\r\n{"id":\r\n`,
	'headers and no body byte yet': `${HEAD}Content-Length: 20\r\n\r\n`,
};

describe('Timeout is a deadline for the whole answer, also after the headers came', () => {
	for (const [what, bytes] of Object.entries(SILENT_AFTER_HEADERS)) {
		it(`GET: ${what}, then silence forever: each attempt ends at its deadline and is retried`, async () => {
			service.script((_request, socket) => socket.write(bytes));
			const result = await run(VALID['person.getAll']);
			expect(service.requests).toHaveLength(3);
			expect(result.error?.message).toBe(
				'The service sent its headers but not the whole body within 1 s (timeout) (after 3 attempts) (item 0)',
			);
			await expectEveryAttemptLetGo();
		});

		it(`POST: ${what}, then silence: one attempt, ended at its deadline, "may have been processed"`, async () => {
			service.script((_request, socket) => socket.write(bytes));
			const result = await run(VALID['person.create']);
			expect(service.requests.map((request) => request.method)).toEqual(['POST']);
			expect(result.error?.message).toBe(
				'The service sent its headers but not the whole body within 1 s (timeout) (not sent twice: the service may already have processed it; check before running it again) (item 0)',
			);
			await expectEveryAttemptLetGo();
		});
	}

	it('Stop Execution ends a silent body at once', async () => {
		let arrived: () => void = () => undefined;
		const arrival = new Promise<void>((resolve) => (arrived = resolve));
		service.script((_request, socket) => {
			socket.write(SILENT_AFTER_HEADERS['an unterminated chunked body']);
			arrived();
		});
		const started = Date.now();
		const result = await runNode({
			parameters: { ...VALID['person.getAll'], requestOptions: { ...FAST, timeout: 60 } },
			credentials: credentials(),
			// Once the service has the request and has sent its headers (a fixed delay could come first).
			cancelWhen: arrival,
		});
		// Sooner than the 60 s Timeout, at any speed: the stop ended it (the body never comes).
		expect(Date.now() - started).toBeLessThan(60_000);
		expect(service.requests).toHaveLength(1);
		expect(result.items).toHaveLength(0);
		await settled();
		expect(service.openConnections()).toBe(0);
	}, 120_000);
});

const PROTOCOL_ERRORS = {
	'40 KB of response headers': `HTTP/1.1 200 OK\r\nX-Padding: ${'x'.repeat(40_000)}\r\nContent-Length: 2\r\n\r\n{}`,
	'a status line that is not HTTP': 'SSH-2.0-OpenSSH_9.6\r\n\r\n',
	'a malformed header line': 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nbroken header line\r\n\r\n{}',
};

describe('An answer that is not valid HTTP is a network failure', () => {
	for (const [what, bytes] of Object.entries(PROTOCOL_ERRORS)) {
		it(`GET: ${what} is retried, and the error says what happened`, async () => {
			service.script((_request, socket) => socket.end(bytes));
			const result = await run(VALID['person.getAll']);
			expect(service.requests).toHaveLength(3);
			expect(result.error?.message).toBe(
				"Could not read the service's answer: it is not valid HTTP (after 3 attempts) (item 0)",
			);
			expect(result.error?.message).not.toMatch(/Parse Error|HPE_/);
			expect(result.error?.description).toMatch(/HPE_/);
			await expectEveryAttemptLetGo();
		});

		it(`POST: ${what} is sent once and "may have been processed"`, async () => {
			service.script((_request, socket) => socket.end(bytes));
			const result = await run(VALID['person.create']);
			expect(service.requests.map((request) => request.method)).toEqual(['POST']);
			expect(result.error?.message).toBe(
				"Could not read the service's answer: it is not valid HTTP (not sent twice: the service may already have processed it; check before running it again) (item 0)",
			);
		});
	}

	it('GET: garbage once, then a healthy answer: the retry succeeds', async () => {
		service.script((_request, socket, count) =>
			socket.end(
				count === 1
					? PROTOCOL_ERRORS['a status line that is not HTTP']
					: `${HEAD}Content-Length: 25\r\n\r\n{"people":[{"id":"p-1"}]}`,
			),
		);
		const result = await run({ ...VALID['person.getAll'], limit: 1 });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(['p-1']);
		expect(service.requests).toHaveLength(2);
	});
});

describe('The body is read as it arrives', () => {
	it('characters split across chunks, one byte at a time, arrive whole', async () => {
		const name = 'Zoë 東京 🔑 Müller';
		const body = Buffer.from(JSON.stringify({ people: [{ id: 'p-1', firstName: name }] }));
		service.script((_request, socket) => {
			socket.setNoDelay(true);
			socket.write(`${HEAD}Content-Length: ${body.length}\r\n\r\n`);
			let sent = 0;
			const next = () => {
				if (socket.destroyed) return;
				if (sent === body.length) return void socket.end();
				socket.write(body.subarray(sent, ++sent));
				setTimeout(next, 1);
			};
			next();
		});
		const result = await run({ ...VALID['person.getAll'], limit: 1 });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.firstName)).toEqual([name]);
	});

	it('a byte order mark before the JSON is refused as not JSON, as before', async () => {
		const text = '{"people":[{"id":"p-1"}]}';
		service.script((_request, socket) =>
			socket.end(
				Buffer.concat([
					Buffer.from(`${HEAD}Content-Length: ${text.length + 3}\r\n\r\n`),
					Buffer.from([0xef, 0xbb, 0xbf]),
					Buffer.from(text),
				]),
			),
		);
		const result = await run({ ...VALID['person.getAll'], limit: 1 });
		expect(result.error?.message).toMatch(
			/^The service answered HTTP 200 with a body that is not valid JSON/,
		);
	});
});
