/**
 * No secret in any output, success included: a token, client secret or signed JWT that a service
 * echoes in a successful answer (a record that holds it, a key named by it, a text answer, a link
 * with `access_token=`) leaves the node as `[redacted]`, in any of its encoded forms. A service's own
 * data, its JWTs included, is output as it came. Through n8n's engine over real HTTP.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunResult } from '../harness/engine';
import { credentialsFor, sendJson, useHostile } from './server';

const service = useHostile();
const R = '[redacted]';
const TOKEN = 'token-123456';
const FAST = { maxAttempts: 2, initialRetryDelay: 10, maxTotalWait: 10, timeout: 600 };
const CLIENT = {
	authentication: 'clientCredentials',
	clientId: 'client-1',
	clientSecret: 'cl1ent/Secret+=-mnopqrstuv',
	userId: 'tenant-1',
};

async function customCall(
	method: string,
	credentials: Record<string, string> = {},
	extra: INodeParameters = {},
): Promise<RunResult> {
	return await runNode({
		credentials: credentialsFor(service.origin, credentials),
		parameters: {
			resource: 'customApiCall',
			operation: 'send',
			host: 'crm',
			method,
			path: 'integrations/i-1',
			body: '{}',
			requestOptions: FAST,
			...extra,
		},
		onError: 'continueRegularOutput',
	});
}

const sentToken = () =>
	String(service.received[service.received.length - 1]?.headers.authorization).slice(7);
const outputOf = (result: RunResult) => result.items.map((item) => item.json);

/** Every string in a value, keys included. */
function stringsOf(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(stringsOf);
	if (value && typeof value === 'object')
		return Object.entries(value).flatMap(([key, entry]) => [key, ...stringsOf(entry)]);
	return [];
}

describe('a secret echoed in a successful answer is redacted before it is output', () => {
	test('the access token in a record, a nested list, a key and a link: each [redacted], nothing else changed', async () => {
		service.script((request, res) => {
			const token = String(request.headers.authorization).slice(7);
			sendJson(res, 200, {
				id: 'i-1',
				config: { apiKey: token, headers: [`Authorization: Bearer ${token}`] },
				[`key-${token}`]: 1,
				webhook: `https://hooks.example.test/in?access_token=${encodeURIComponent(token)}&x=1`,
				owner: { name: 'Ada', createdAt: '2024-01-01' },
			});
		});
		const result = await customCall('GET');

		expect(service.received.map((request) => request.method)).toEqual(['GET']);
		expect(outputOf(result)).toEqual([
			{
				id: 'i-1',
				config: { apiKey: R, headers: [`Authorization: Bearer ${R}`] },
				[`key-${R}`]: 1,
				webhook: `https://hooks.example.test/in?access_token=${R}&x=1`,
				owner: { name: 'Ada', createdAt: '2024-01-01' },
			},
		]);
	});

	test('Client ID and Secret mode: the signed JWT sent (also with its dots as %2E) and the client secret, on a POST', async () => {
		let jwt = '';
		service.script((request, res) => {
			jwt = String(request.headers.authorization).slice(7);
			sendJson(res, 201, {
				id: 'i-2',
				echo: jwt,
				inLink: `/cb?t=${jwt.replace(/\./g, '%2E')}`,
				secret: Buffer.from(CLIENT.clientSecret).toString('base64'),
			});
		});
		const result = await customCall('POST', CLIENT);

		expect(service.received).toHaveLength(1);
		expect(jwt).toMatch(/^eyJ/);
		// A JWT's header is the same for every token of HS512 (no secret): its payload and signature go.
		const header = jwt.split('.')[0];
		expect(outputOf(result)).toEqual([
			{ id: 'i-2', echo: R, inLink: `/cb?t=${header}%2E${R}%2E${R}`, secret: R },
		]);
	});

	test('Client ID and Secret mode: the signed JWT without its header, or without its first 2 characters, in a 200 record', async () => {
		let jwt = '';
		service.script((request, res) => {
			jwt = String(request.headers.authorization).slice(7);
			const [, payload, signature] = jwt.split('.');
			sendJson(res, 200, {
				id: 'i-3',
				lastToken: `${payload}.${signature}`,
				suffix: jwt.slice(2),
			});
		});
		const result = await customCall('GET', CLIENT);

		expect(service.received).toHaveLength(1);
		expect(jwt).toMatch(/^eyJ/);
		expect(outputOf(result)).toEqual([
			{
				id: 'i-3',
				lastToken: `${R}.${R}`,
				suffix: `JhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9.${R}.${R}`,
			},
		]);
	});

	test('Client ID and Secret mode: the signed JWT with its dots as &#46; or \\u002e keeps no payload or signature, and the client secret in base64url goes', async () => {
		let jwt = '';
		service.script((request, res) => {
			jwt = String(request.headers.authorization).slice(7);
			sendJson(res, 200, {
				id: 'i-5',
				echo: jwt.replace(/\./g, '&#46;'),
				json: jwt.replace(/\./g, '\\u002e'),
				secret: Buffer.from(CLIENT.clientSecret).toString('base64url'),
			});
		});
		const result = await customCall('GET', CLIENT);

		const header = jwt.split('.')[0];
		expect(outputOf(result)).toEqual([
			{
				id: 'i-5',
				echo: `${header}&#46;${R}&#46;${R}`,
				json: `${header}\\u002e${R}\\u002e${R}`,
				secret: R,
			},
		]);
	});

	test("the service's own JWTs and data are output as they came", async () => {
		const theirs =
			'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZXJ2aWNlLW93bmVkIn0.c2lnbmF0dXJlLW9mLXRoZS1zZXJ2aWNl';
		const record = {
			id: 'i-3',
			accessGrant: theirs,
			note: 'Bearer tokens are managed in Settings',
		};
		service.script((_request, res) => sendJson(res, 200, record));
		const result = await customCall('PUT');

		expect(outputOf(result)).toEqual([record]);
	});

	test('a text answer that echoes the token', async () => {
		service.script((request, res) => {
			res.writeHead(200, { 'Content-Type': 'text/plain' });
			res.end(`Deleted; your token ${String(request.headers.authorization).slice(7)} was used`);
		});
		const result = await customCall('DELETE');

		expect(service.received).toHaveLength(1);
		expect(outputOf(result)).toEqual([{ data: `Deleted; your token ${R} was used` }]);
	});

	test('Person › Get Many: a person that holds the token', async () => {
		service.script((request, res) =>
			sendJson(res, 200, {
				people: [
					{ id: 'p_1', firstName: 'Ada', bio: String(request.headers.authorization).slice(7) },
				],
			}),
		);
		const result = await runNode({
			credentials: credentialsFor(service.origin),
			parameters: {
				resource: 'person',
				operation: 'getAll',
				returnAll: true,
				requestOptions: FAST,
			},
		});

		expect(sentToken()).toBe(TOKEN);
		expect(result.items.map((item) => item.json)).toEqual([
			expect.objectContaining({ id: 'p_1', firstName: 'Ada', bio: R }),
		]);
	});

	const SEED = Number(process.env.PROPERTY_SEED ?? 28);
	const RUNS = Number(process.env.PROPERTY_RUNS ?? 30);
	const ENCODINGS: Record<string, (secret: string) => string> = {
		raw: (secret) => secret,
		url: encodeURIComponent,
		form: (secret) => new URLSearchParams({ s: secret }).toString().slice(2),
		base64: (secret) => Buffer.from(secret).toString('base64'),
		base64url: (secret) => Buffer.from(secret).toString('base64url'),
		html: (secret) =>
			secret
				.replace(/&/g, '&amp;')
				.replace(/</g, '&lt;')
				.replace(/>/g, '&gt;')
				.replace(/"/g, '&quot;')
				.replace(/'/g, '&#39;'),
	};
	test(`property: any access token, echoed in any encoding as any value or key of a record, is in no output string (seed ${SEED}, ${RUNS} runs)`, async () => {
		const token = fc.string({
			unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
			minLength: 12,
			maxLength: 40,
		});
		await fc.assert(
			fc.asyncProperty(
				token,
				fc.constantFrom(...Object.keys(ENCODINGS)),
				fc.constantFrom('value', 'key', 'nested', 'list'),
				fc.string({ maxLength: 12 }),
				async (secret, encoding, where, around) => {
					service.received.length = 0;
					const echoed = `${around}${ENCODINGS[encoding](secret)}${around}`;
					const record: IDataObject = { id: 'i-5' };
					if (where === 'value') record.echo = echoed;
					else if (where === 'key') record[echoed] = true;
					else if (where === 'nested') record.deep = { a: { b: [{ c: echoed }] } };
					else record.list = ['x', echoed, 'y'];
					service.script((_request, res) => sendJson(res, 200, record));
					const result = await customCall('PATCH', { accessToken: secret });

					expect(service.received).toHaveLength(1);
					expect(result.items).toHaveLength(1);
					for (const text of stringsOf(result.items[0].json))
						for (const encode of Object.values(ENCODINGS))
							expect(text).not.toContain(encode(secret));
				},
			),
			{ seed: SEED, numRuns: RUNS },
		);
	});
});
