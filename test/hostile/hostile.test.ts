/**
 * The node against a hostile service (or a broken proxy in front of it), through n8n's real engine over
 * real HTTP on 127.0.0.1: for each rule of the transport, the server behaviour that would break it.
 * Every test checks what reached which origin, how many records the service created, that the node
 * ended within a bound, and that no form of a secret appears in any output, message or description.
 */
import { join } from 'path';
import { createGzip } from 'zlib';

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, testCredential, type RunResult } from '../harness/engine';
import { packageRoot } from '../harness/package-root';
import { VALID } from '../reliability/helpers';
import { refusingOrigin, sendJson, startHostile, type HostileServer } from './server';

/** Characters that every encoding (URL, HTML, JSON, base64) writes differently. */
const TOKEN = `s3cr3t/T0ken+=&<x>"'-abcdefghijkl`;
const CLIENT_SECRET = `cl1ent/Secret+=&<y>"'-mnopqrstuv`;
const FAST = {
	maxAttempts: 3,
	initialRetryDelay: 10,
	maxTotalWait: 10,
	// Out of reach: a 2 s Timeout cut healthy answers short on a loaded machine; a test of the Timeout sets its own.
	timeout: 600,
	maxRequestsPerSecond: 0,
};

let service: HostileServer;
let elsewhere: HostileServer;
beforeAll(async () => {
	[service, elsewhere] = await Promise.all([startHostile(), startHostile()]);
});
afterAll(async () => await Promise.all([service.close(), elsewhere.close()]));
beforeEach(() => {
	service.received.length = 0;
	elsewhere.received.length = 0;
	elsewhere.script((_request, res) => sendJson(res, 200, { id: 'stolen', people: [] }));
});

type Mode = 'accessToken' | 'clientCredentials';

function credentials(
	mode: Mode = 'accessToken',
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	const hosts = {
		crmUrl: service.origin,
		universalUrl: service.origin,
		losUrl: service.origin,
		calendarUrl: service.origin,
	};
	const auth: ICredentialDataDecryptedObject =
		mode === 'accessToken'
			? { authentication: 'accessToken', accessToken: TOKEN }
			: {
					authentication: 'clientCredentials',
					clientId: 'client-1',
					clientSecret: CLIENT_SECRET,
					userId: 'tenant-1',
				};
	return { ...hosts, credentialId: 'cred-hostile', ...auth, ...overrides };
}

async function run(
	parameters: INodeParameters,
	options: {
		mode?: Mode;
		credentials?: ICredentialDataDecryptedObject;
		items?: IDataObject[];
		requestOptions?: IDataObject;
		onError?: 'continueRegularOutput';
		cancelWhen?: Promise<unknown>;
	} = {},
): Promise<RunResult & { ms: number }> {
	const started = Date.now();
	const result = await runNode({
		parameters: { ...parameters, requestOptions: { ...FAST, ...options.requestOptions } },
		credentials: options.credentials ?? credentials(options.mode),
		items: options.items,
		onError: options.onError,
		cancelWhen: options.cancelWhen,
	});
	return { ...result, ms: Date.now() - started };
}

/** Every way a secret can come back: raw, trimmed, URL-, form-, HTML-, JSON- and base64-encoded. */
function secretForms(secret: string): string[] {
	const html = secret
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
	return [
		secret,
		encodeURIComponent(secret),
		html,
		JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
		Buffer.from(secret).toString('base64'),
	];
}

/** No secret form, no JWT and no part of a secret longer than 8 characters anywhere in what the run produced. */
function expectNoSecrets(result: RunResult, secrets = [TOKEN, CLIENT_SECRET]): void {
	const text = JSON.stringify({
		items: result.items,
		errorItems: result.errorItems,
		error: result.error,
		description: result.error?.description,
	});
	for (const secret of secrets) {
		for (const form of secretForms(secret)) expect(text).not.toContain(form);
		for (let start = 0; start + 8 <= secret.length; start++)
			expect(text).not.toContain(secret.slice(start, start + 8));
	}
	expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]+\./);
}

const people = (...ids: string[]) => ids.map((id) => ({ id, firstName: id }));
const OPERATIONS = [
	{
		label: 'GET Person › Get Many',
		parameters: { resource: 'person', operation: 'getAll', returnAll: true },
		method: 'GET',
	},
	{ label: 'POST Person › Create', parameters: VALID['person.create'], method: 'POST' },
	{ label: 'POST Document › Create', parameters: VALID['document.create'], method: 'POST' },
	{ label: 'PUT Borrower › Update', parameters: VALID['borrower.update'], method: 'PUT' },
	{ label: 'PUT Webhook › Update', parameters: VALID['webhook.update'], method: 'PUT' },
	{
		label: 'POST Credential › Create (universal host)',
		parameters: VALID['credential.create'],
		method: 'POST',
	},
] as const;

describe('redirects are never followed with our credentials', () => {
	for (const status of [301, 302, 303, 307, 308]) {
		for (const operation of OPERATIONS) {
			for (const mode of ['accessToken', 'clientCredentials'] as const) {
				test(`${status} to another origin on ${operation.label} (${mode})`, async () => {
					service.script((_request, res) =>
						sendJson(
							res,
							status,
							{ moved: true },
							{ Location: `${elsewhere.origin}/api/steal?x=1` },
						),
					);
					const result = await run(operation.parameters, { mode });

					expect(elsewhere.received).toHaveLength(0);
					expect(service.received).toHaveLength(1);
					expect(service.received[0].method).toBe(operation.method);
					expect(result.items).toHaveLength(0);
					expect(result.error?.message).toContain(
						`redirect (HTTP ${status}) to ${elsewhere.origin}; redirects are not followed`,
					);
					if (operation.method === 'POST')
						expect(result.error?.message).toContain(
							'not sent twice: the service may already have processed it',
						);
					expectNoSecrets(result);
				});
			}
		}
	}

	test('a same-origin nextLink that redirects elsewhere is not followed either', async () => {
		// The link stays on the list's path (decisions.md: a link continues only its own list).
		service.script((request, res) =>
			request.url.startsWith('/api/people?limit=')
				? sendJson(res, 200, {
						_metadata: { nextLink: '/api/people?page=2' },
						people: people('p1', 'p2'),
					})
				: sendJson(res, 302, {}, { Location: `${elsewhere.origin}/api/people?page=2` }),
		);
		const result = await run({ resource: 'person', operation: 'getAll', returnAll: true });

		expect(service.received.map((request) => request.url)).toEqual([
			'/api/people?limit=100&offset=0',
			'/api/people?page=2',
		]);
		expect(elsewhere.received).toHaveLength(0);
		expect(result.error?.message).toMatch(
			/^The service answered with a redirect \(HTTP 302\) to http:\/\/127\.0\.0\.1:\d+; redirects are not followed with your token \(item 0\)$/,
		);
	});

	test('a POST processed and then redirected to a refusing host creates one record, never five', async () => {
		const refusing = await refusingOrigin();
		let created = 0;
		service.script((_request, res) => {
			created++;
			sendJson(res, 307, {}, { Location: `${refusing}/api/people` });
		});
		const result = await run(VALID['person.create'], { requestOptions: { maxAttempts: 5 } });

		expect(created).toBe(1);
		expect(result.error?.message).toContain(
			'(not sent twice: the service may already have processed it; check before running it again)',
		);
	});
});

describe('paging always ends', () => {
	const returnAll = { resource: 'person', operation: 'getAll', returnAll: true };

	test('new cursors on every page while the records repeat: stops with an error on the second page', async () => {
		service.script((_request, res, count) =>
			sendJson(res, 200, { _metadata: { next: `cursor-${count}` }, people: people('p1', 'p2') }),
		);
		const result = await run(returnAll);

		expect(service.received).toHaveLength(2);
		expect(result.error?.message).toBe(
			'Paging stopped: the service returned the same records again (it does not move to the next page) (item 0)',
		);
	});

	test('records alternating between two pages with ever-new cursors: stops when a page brings nothing new', async () => {
		service.script((_request, res, count) =>
			sendJson(res, 200, {
				_metadata: { nextLink: `/api/people?c=${count}` },
				people: count % 2 ? people('a1', 'a2') : people('b1', 'b2'),
			}),
		);
		const result = await run(returnAll);

		expect(service.received).toHaveLength(3);
		expect(result.error?.message).toMatch(
			/^Paging stopped: the service returned the same records again/,
		);
	});

	test('an offset that does not advance in _metadata stops with an error naming both offsets', async () => {
		service.script((_request, res, count) =>
			sendJson(res, 200, {
				_metadata: { offset: 0, total: 1000 },
				people: people(`x${count}a`, `x${count}b`),
			}),
		);
		const result = await run({ ...returnAll, options: { pageSize: 2 } });

		expect(service.received.map((request) => request.url)).toEqual([
			'/api/people?limit=2&offset=0',
			'/api/people?limit=2&offset=2',
		]);
		expect(result.error?.message).toBe(
			'Paging stopped: the service answered offset 0 when asked for offset 2 (item 0)',
		);
	});

	test('a service that ignores offset (same first page, no offset in _metadata) stops with an error', async () => {
		service.script((_request, res) =>
			sendJson(res, 200, { _metadata: { total: 1000 }, people: people('p1', 'p2') }),
		);
		const result = await run({ ...returnAll, options: { pageSize: 2 } });

		expect(service.received).toHaveLength(2);
		expect(result.error?.message).toMatch(
			/^Paging stopped: the service returned the same records again/,
		);
	});

	test('a relative nextLink resolves against the host and is followed', async () => {
		service.script((request, res) =>
			request.url === '/api/people?offset=2'
				? sendJson(res, 200, { _metadata: {}, people: people('p3') })
				: sendJson(res, 200, {
						_metadata: { nextLink: '/api/people?offset=2' },
						people: people('p1', 'p2'),
					}),
		);
		const result = await run(returnAll);

		expect(result.error).toBeUndefined();
		expect(service.received.map((request) => request.url)).toEqual([
			'/api/people?limit=100&offset=0',
			'/api/people?offset=2',
		]);
		expect(service.received[1].headers.authorization).toBe(`Bearer ${TOKEN}`);
		expect(result.items.map((item) => item.json.id)).toEqual(['p1', 'p2', 'p3']);
	});

	for (const [label, link] of [
		['protocol-relative', () => `//${new URL(elsewhere.origin).host}/api/people`],
		[
			'user@host trick',
			() => `http://${new URL(service.origin).host}@${new URL(elsewhere.origin).host}/api/people`,
		],
		['https for an http host', () => `https://${new URL(service.origin).host}/api/people`],
	] as const) {
		test(`a nextLink to another origin (${label}) is refused and nothing is sent there`, async () => {
			service.script((_request, res) =>
				sendJson(res, 200, { _metadata: { nextLink: link() }, people: people('p1') }),
			);
			const result = await run(returnAll);

			expect(service.received).toHaveLength(1);
			expect(elsewhere.received).toHaveLength(0);
			expect(result.error?.message).toMatch(
				/^The service pointed to a next page on another origin \(.+\); it is not followed with your token \(item 0\)$/,
			);
		});
	}
});

describe('the Timeout is a deadline for the whole attempt', () => {
	test('a body that drips one byte every 200 ms ends a 1 s Timeout in under 5 s (two attempts of a GET)', async () => {
		service.script((_request, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.write('{"people": [');
			const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 200);
		});
		const result = await run(VALID['person.getAll'], {
			requestOptions: { timeout: 1, maxAttempts: 2 },
		});

		expect(service.received).toHaveLength(2);
		expect(result.error?.message).toBe(
			'The service sent its headers but not the whole body within 1 s (timeout) (after 2 attempts) (item 0)',
		);
		// Ended by the deadline (only it writes "within 1 s (timeout)"): the drip would go on for ever.
	});

	test('a POST whose answer never comes fails within the deadline, once, and may have been processed', async () => {
		service.script(() => undefined);
		const result = await run(VALID['person.create'], { requestOptions: { timeout: 1 } });

		expect(service.received).toHaveLength(1);
		expect(result.error?.message).toBe(
			'The service did not answer within 1 s (timeout) (not sent twice: the service may already have processed it; check before running it again) (item 0)',
		);
		// Ended by the deadline (only it writes "within 1 s (timeout)"): the service never answers.
	});

	test('the largest Timeout works (no timer overflow), and a larger one from an expression is refused before sending', async () => {
		service.script((_request, res) => sendJson(res, 201, { id: 'p_1' }));
		const largest = await run(VALID['person.create'], { requestOptions: { timeout: 600 } });
		expect(largest.items.map((item) => item.json)).toEqual([{ id: 'p_1' }]);

		service.received.length = 0;
		const tooLarge = await run(VALID['person.create'], {
			requestOptions: { timeout: '={{ 100000 }}' },
		});
		expect(service.received).toHaveLength(0);
		expect(tooLarge.error?.message).toBe(
			'Request Options › Timeout: must be between 1 and 600, got 100000 (item 0)',
		);
	});

	test('Stop Execution ends a long Retry-After wait at once, and nothing more is sent', async () => {
		service.script((_request, res) =>
			sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': '30' }),
		);
		// Stop is pressed once the node has read the 429 and paused the tenant, so it is waiting (a fixed
		// delay could press it before the answer is read, and prove nothing about the wait). The pace is
		// the one the harness loaded with the node from dist/.
		const pace = require(
			join(packageRoot(), 'dist/nodes/IntegrationService/transport/pace.js'),
		) as {
			tenantKey(credential: string, connectionId: string | undefined, origin: string): string;
			pausedUntil(tenant: string): number;
		};
		const tenant = pace.tenantKey('stop-during-wait', 'cred-hostile', service.origin);
		const waiting = (async () => {
			while (pace.pausedUntil(tenant) <= Date.now())
				await new Promise((resolve) => setTimeout(resolve, 5));
		})();
		const started = Date.now();
		const outcome = await runNode({
			parameters: {
				...VALID['person.getAll'],
				requestOptions: { ...FAST, maxTotalWait: 60, maxAttempts: 5 },
			},
			credentials: credentials(),
			credentialId: 'stop-during-wait',
			cancelWhen: waiting,
		});
		const result = { ...outcome, ms: Date.now() - started };

		// Sooner than the 30 s wait it was in, at any speed: the stop ended it.
		expect(result.ms).toBeLessThan(30_000);
		expect(service.received).toHaveLength(1);
		expect(result.items).toHaveLength(0);
	}, 90_000);

	test('Stop Execution ends a request that is waiting for its answer', async () => {
		let arrived: () => void = () => undefined;
		const arrival = new Promise<void>((resolve) => (arrived = resolve));
		service.script(() => arrived());
		const result = await run(VALID['person.getAll'], {
			requestOptions: { timeout: 60 },
			cancelWhen: arrival,
		});

		// Sooner than the 60 s Timeout, at any speed: the stop ended it (the service never answers).
		expect(result.ms).toBeLessThan(60_000);
		expect(service.received).toHaveLength(1);
	}, 120_000);
});

describe('answers are bounded in size', () => {
	/** 400 MB of JSON whitespace, gzipped to well under 1 MB, built without ever holding the 400 MB. */
	async function gzipBomb(): Promise<Buffer> {
		const gzip = createGzip({ level: 9 });
		const parts: Buffer[] = [];
		gzip.on('data', (chunk: Buffer) => parts.push(chunk));
		const done = new Promise((resolve) => gzip.on('end', resolve));
		gzip.write('{"people": [');
		const spaces = Buffer.alloc(1024 * 1024, ' ');
		for (let i = 0; i < 400; i++)
			if (!gzip.write(spaces)) await new Promise((resolve) => gzip.once('drain', resolve));
		gzip.end(']}');
		await done;
		return Buffer.concat(parts);
	}

	test('a 400 MB gzip bomb fails clearly at the Max Response Size and peak memory stays bounded', async () => {
		const bomb = await gzipBomb();
		expect(bomb.length).toBeLessThan(1024 * 1024);
		service.script((_request, res) => {
			res.writeHead(200, {
				'Content-Type': 'application/json',
				'Content-Encoding': 'gzip',
				'Content-Length': bomb.length,
			});
			res.end(bomb);
		});
		global.gc?.();
		const before = process.memoryUsage().rss;
		let peak = before;
		const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
		const result = await run(VALID['person.getAll'], { requestOptions: { maxAttempts: 1 } });
		clearInterval(sampler);

		expect(result.error?.message).toBe(
			"The service's answer is larger than the Max Response Size of 16 MB; the rest was not read (item 0)",
		);
		// 16 MB of text read at most, plus the engine's own allocations: nowhere near the 400 MB (1.2 GB before).
		expect(peak - before).toBeLessThan(150 * 1024 * 1024);
	});

	test('an answer that never ends stops at a smaller Max Response Size, and a declared oversize is not read at all', async () => {
		const chunk = Buffer.alloc(64 * 1024, ' ');
		service.script((_request, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			const pump = () => {
				while (!res.destroyed && res.write(chunk));
				if (!res.destroyed) res.once('drain', pump);
			};
			pump();
		});
		const endless = await run(VALID['person.getAll'], {
			requestOptions: { maxResponseSize: 1, maxAttempts: 1 },
		});
		expect(endless.error?.message).toBe(
			"The service's answer is larger than the Max Response Size of 1 MB; the rest was not read (item 0)",
		);

		service.script((_request, res) => {
			res.writeHead(200, {
				'Content-Type': 'application/json',
				'Content-Length': 1024 * 1024 * 1024,
			});
			res.write('{');
		});
		const declared = await run(VALID['person.create'], { requestOptions: { maxAttempts: 1 } });
		expect(declared.error?.message).toContain(
			'larger than the Max Response Size of 16 MB; the rest was not read (not sent twice: the service may already have processed it',
		);
		// Not read at all: reading would wait for a body that never comes and end at the Timeout instead.
	});
});

describe('answers cut off midway are network failures', () => {
	const cutOff = (_request: unknown, res: import('http').ServerResponse, count: number) => {
		if (count > 1) return sendJson(res, 200, { _metadata: {}, people: people('p1') });
		res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 1000 });
		res.write('{"_metadata": {}, "people": [{"id": "p1"');
		setTimeout(() => res.socket?.destroy(), 50);
	};

	test('a GET is retried and succeeds', async () => {
		service.script(cutOff);
		const result = await run(VALID['person.getAll']);

		expect(service.received).toHaveLength(2);
		expect(result.items.map((item) => item.json.id)).toEqual(['p1']);
	});

	test('a POST is not sent again and its error says it may have been processed', async () => {
		service.script(cutOff);
		const result = await run(VALID['person.create']);

		expect(service.received).toHaveLength(1);
		expect(result.error?.message).toBe(
			'The answer was cut off midway (the connection closed before the whole body came) (not sent twice: the service may already have processed it; check before running it again) (item 0)',
		);
	});
});

describe('a failing node lets nothing land afterwards', () => {
	test('concurrency 4, item 0 rejected at once: in-flight creates settle before the node fails, later items are never sent', async () => {
		const finished: number[] = [];
		service.script((request, res) => {
			const body = JSON.parse(request.body) as IDataObject;
			if (body.firstName === 'bad') return sendJson(res, 400, { error: 'invalid' });
			setTimeout(() => {
				sendJson(res, 201, { id: `p_${String(body.firstName)}` });
				finished.push(Date.now());
			}, 800);
		});
		const items = ['bad', 'a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => ({ name }));
		const result = await run(
			{ ...VALID['person.create'], firstName: '={{ $json.name }}' },
			{ items, requestOptions: { concurrency: 4 } },
		);
		const ended = Date.now();
		await new Promise((resolve) => setTimeout(resolve, 1500));

		expect(result.error?.message).toBe(
			'The service rejected the request as invalid (HTTP 400): invalid (item 0)',
		);
		expect(
			service.received.map((request) => (JSON.parse(request.body) as IDataObject).firstName).sort(),
		).toEqual(['a', 'b', 'bad', 'c']);
		expect(finished).toHaveLength(3);
		for (const at of finished) expect(at).toBeLessThanOrEqual(ended);
	});
});

describe('secrets are redacted in every form before anything is shortened', () => {
	const echoes: Array<[string, (auth: string) => string]> = [
		['raw', (auth) => auth],
		['URL-encoded', (auth) => encodeURIComponent(auth)],
		[
			'HTML-escaped',
			(auth) =>
				auth
					.replace(/&/g, '&amp;')
					.replace(/</g, '&lt;')
					.replace(/>/g, '&gt;')
					.replace(/"/g, '&quot;')
					.replace(/'/g, '&#39;'),
		],
		['JSON-escaped with \\/', (auth) => JSON.stringify(auth).slice(1, -1).replace(/\//g, '\\/')],
		['base64', (auth) => Buffer.from(auth.replace(/^Bearer /, '')).toString('base64')],
		['cut by the 300-character limit inside the token', (auth) => `${'x'.repeat(290)} ${auth}`],
	];
	for (const mode of ['accessToken', 'clientCredentials'] as const) {
		for (const [label, encode] of echoes) {
			test(`the service echoes the token ${label} in an error (${mode})`, async () => {
				const secret = mode === 'accessToken' ? TOKEN : CLIENT_SECRET;
				service.script((request, res) => {
					const auth = String(request.headers.authorization);
					// The secret the node holds in this mode: the pasted token, or the client secret (echoed by a proxy that knows it).
					const echoed = `denied for ${encode(auth)} and ${encode(secret)}`;
					res.writeHead(403, { 'Content-Type': 'text/plain' });
					res.end(echoed);
				});
				const result = await run(VALID['person.create'], {
					mode,
					onError: 'continueRegularOutput',
				});

				expect(service.received).toHaveLength(1);
				expect(String(result.items[0].json.error)).toMatch(
					/^The credential is not allowed to do this \(HTTP 403\): denied for /,
				);
				expectNoSecrets(result, [secret]);
			});
		}
	}

	test('a token pasted with a trailing space is redacted when echoed trimmed', async () => {
		service.script((request, res) =>
			sendJson(res, 401, { error: `bad token ${String(request.headers.authorization).slice(7)}` }),
		);
		const result = await run(VALID['person.getAll'], {
			credentials: credentials('accessToken', { accessToken: `${TOKEN} ` }),
		});

		expect(result.error?.message).toBe(
			'The access token is invalid or expired (HTTP 401): bad token [redacted] (item 0)',
		);
		expectNoSecrets(result);
	});

	test('a host URL with user:password is refused and the password is never shown', async () => {
		const withUserInfo = service.origin.replace('http://', 'http://admin:pa55word-xyz@');
		const result = await run(VALID['person.getAll'], {
			credentials: credentials('accessToken', { crmUrl: withUserInfo }),
		});

		expect(service.received).toHaveLength(0);
		expect(result.error?.message).toBe(
			"The credential's CRM Host URL must not contain a user name or password (user:password@); the token authenticates every request (item 0)",
		);
		expect(JSON.stringify(result.error)).not.toContain('pa55word');
	});
});

describe('retry waits are bounded for every item', () => {
	test('Max Total Retry Wait holds under concurrency and shared 429 pauses', async () => {
		service.script((_request, res) =>
			sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': '1' }),
		);
		const items = Array.from({ length: 6 }, (_, index) => ({ index }));
		const result = await run(VALID['person.getAll'], {
			items,
			onError: 'continueRegularOutput',
			requestOptions: { concurrency: 6, maxAttempts: 20, maxTotalWait: 1.5 },
		});

		expect(result.items).toHaveLength(6);
		for (const item of result.items)
			expect(String(item.json.error)).toMatch(
				/gave up: waiting .* would exceed the Max Total Retry Wait of 1\.5 s/,
			);
		// Each item waits at most 1.5 s in all (the messages above); without the bound each would retry 19
		// times a second apart: the run ends sooner than that, at any speed.
		expect(result.ms).toBeLessThan(19_000);
	});

	for (const header of ['-5', '.5', '1e3', 'Tue, 1 Jan 2001 00:00:00']) {
		test(`Retry-After "${header}" is not a valid value: the normal backoff applies`, async () => {
			service.script((_request, res, count) =>
				count === 1
					? sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': header })
					: sendJson(res, 200, { people: people('p1') }),
			);
			const result = await run(VALID['person.getAll'], {
				requestOptions: { initialRetryDelay: 400 },
			});

			expect(result.items.map((item) => item.json.id)).toEqual(['p1']);
			// Backoff with jitter waits between half and all of the 400 ms; an accepted header would wait 0
			// (this lower bound) or longer than Max Total Retry Wait (then the run gives up: the item above).
			// Timers fire late under load, never early: a lower bound only.
			const gap = service.received[1].at - service.received[0].at;
			expect(gap).toBeGreaterThanOrEqual(190);
		});
	}

	for (const [option, value, message] of [
		['concurrency', 5000, 'Request Options › Concurrency: must be between 1 and 50, got 5000'],
		['maxAttempts', 100000, 'Request Options › Max Attempts: must be between 1 and 20, got 100000'],
		[
			'maxTotalWait',
			1e9,
			'Request Options › Max Total Retry Wait: must be between 0 and 3600, got 1000000000',
		],
	] as const) {
		test(`${option} = ${value} from an expression is refused before anything is sent`, async () => {
			const result = await run(VALID['person.create'], {
				requestOptions: { [option]: `={{ ${value} }}` },
			});

			expect(service.received).toHaveLength(0);
			expect(result.error?.message).toBe(`${message} (item 0)`);
		});
	}
});

describe('a record is an object', () => {
	test('a 2xx JSON list where a created record is expected is a clear error, not an item holding a list', async () => {
		service.script((_request, res) => sendJson(res, 201, [{ id: 'p_1' }, { id: 'p_2' }]));
		const result = await run(VALID['person.create'], { onError: 'continueRegularOutput' });

		expect(service.received).toHaveLength(1);
		expect(result.items).toHaveLength(1);
		expect(Array.isArray(result.items[0].json)).toBe(false);
		expect(result.items[0].json.error).toBe(
			'The service answered HTTP 201 with a JSON list where a record was expected: [{"id":"p_1"},{"id":"p_2"}] (not sent twice: the service may already have processed it; check before running it again) (item 0)',
		);
	});
});

describe('the credential test fails on anything but the people list', () => {
	const html =
		'<!doctype html><html><head><title>Sign in</title></head><body><form>Password</form></body></html>';
	const cases: Array<[string, (res: import('http').ServerResponse) => void, RegExp]> = [
		[
			'an HTML login page (200)',
			(res) => {
				res.writeHead(200, { 'Content-Type': 'text/html' });
				res.end(html);
			},
			/not with the people list/,
		],
		[
			'JSON of the wrong shape (200)',
			(res) => sendJson(res, 200, { ok: true }),
			/not with the people list/,
		],
		[
			'a redirect to another origin',
			(res) => sendJson(res, 302, {}, { Location: `${elsewhere.origin}/api/people?limit=1` }),
			/redirect \(HTTP 302\); redirects are not followed/,
		],
		[
			'401',
			(res) => sendJson(res, 401, { error: 'expired' }),
			/refused the token \(HTTP 401\): it is invalid or expired/,
		],
		['403', (res) => sendJson(res, 403, { error: 'no' }), /not allowed .* \(HTTP 403\)/],
		['409', (res) => sendJson(res, 409, { error: 'syncing' }), /not ready yet \(HTTP 409\)/],
	];
	for (const [label, answer, message] of cases) {
		test(`${label}: the test fails with its own message, nothing reaches another origin`, async () => {
			service.script((_request, res) => answer(res));
			const result = await testCredential(credentials());

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(message);
			expect(elsewhere.received).toHaveLength(0);
			expect(JSON.stringify(result)).not.toContain(TOKEN);
		});
	}

	test('the real people list passes (the control case)', async () => {
		service.script((_request, res) =>
			sendJson(res, 200, { _metadata: { total: 1 }, people: people('p1') }),
		);
		await expect(testCredential(credentials())).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(service.received[0].headers['x-service-credential-id']).toBe('cred-hostile');
	});

	test('a Default Credential ID with CR/LF fails the test and nothing is sent (n8n would strip it and send another ID)', async () => {
		service.script((_request, res) => sendJson(res, 200, { people: [] }));
		const result = await testCredential(
			credentials('accessToken', { credentialId: 'cred-hostile\r\nX-Injected: 1' }),
		);

		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/Default Credential ID contains a line break/),
		});
		expect(service.received).toHaveLength(0);
	});

	test('a host URL with user:password fails the test, is never contacted, and the password is not shown', async () => {
		const result = await testCredential(
			credentials('accessToken', {
				crmUrl: service.origin.replace('http://', 'http://admin:pa55word-xyz@'),
			}),
		);

		expect(result.status).toBe('Error');
		expect(JSON.stringify(result)).not.toContain('pa55word');
		expect(service.received).toHaveLength(0);
	});
});
