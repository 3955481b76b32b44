/**
 * Keys chosen by an editor or an input row (query parameter names, keys inside JSON bodies, keys of
 * Map Automatically's compound entries and flag sets) through n8n's engine against a scripted server:
 * each is sent exactly or refused before anything is sent, never silently dropped.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunResult } from '../harness/engine';
import { credentialsFor, sendJson, useHostile } from '../hostile/server';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const SEED = Number(process.env.PROPERTY_SEED ?? 2028);

const service = useHostile();
beforeEach(() => service.script((_request, res) => sendJson(res, 200, { people: [], ok: true })));

async function run(
	resource: string,
	operation: string,
	parameters: INodeParameters,
	items: IDataObject[] = [{}],
): Promise<RunResult> {
	return await runNode({
		credentials: credentialsFor(service.origin),
		items,
		parameters: {
			resource,
			operation,
			...parameters,
			requestOptions: { concurrency: 1, maxRequestsPerSecond: 0, maxAttempts: 1 },
		},
		onError: 'continueRegularOutput',
	});
}

const query = (url: string) => [...new URL(url, 'http://x').searchParams.entries()];
/** The error of each output item, and that nothing reached the service. */
function expectRefused(result: RunResult, messages: string[]): void {
	expect(result.items.map((item) => item.json.error)).toEqual(messages);
	expect(service.received).toHaveLength(0);
}

describe('Query Parameters: a name is sent exactly or refused', () => {
	test.each(['__proto__', 'constructor', 'prototype'])(
		'"%s", which n8n\'s HTTP client would leave out, is refused on Custom API Call and Get Many',
		async (name) => {
			const parameters = { parameters: [{ name, value: 'x' }] };
			const custom = await run('customApiCall', 'send', {
				method: 'DELETE',
				path: 'notes/n-1',
				queryParameters: parameters,
			});
			expectRefused(custom, [
				`Query Parameters › ${name}: cannot be sent: n8n's HTTP client leaves __proto__, constructor, prototype out of the URL (item 0)`,
			]);
			const people = await run('person', 'getAll', { options: { queryParameters: parameters } });
			expectRefused(people, [
				`Options › Query Parameters › ${name}: cannot be sent: n8n's HTTP client leaves __proto__, constructor, prototype out of the URL (item 0)`,
			]);
		},
	);

	test('names an object holds by inheritance, or that look like nesting, are sent as written', async () => {
		const names = ['toString', 'hasOwnProperty', '__defineGetter__', 'Constructor', 'a[b]', 'a.b'];
		const result = await run('customApiCall', 'send', {
			method: 'DELETE',
			path: 'notes/n-1',
			queryParameters: { parameters: names.map((name, index) => ({ name, value: `v${index}` })) },
		});
		expect(result.items.map((item) => item.json)).toEqual([{ people: [], ok: true }]);
		expect(query(service.received[0].url)).toEqual(names.map((name, index) => [name, `v${index}`]));
	});

	test(`any name arrives exactly, or is refused before sending (seed ${SEED}, ${RUNS} runs)`, async () => {
		const anyName = fc.oneof(
			fc.fullUnicodeString({ minLength: 1, maxLength: 8 }),
			fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'a[]', 'a{}', ' x '),
		);
		await fc.assert(
			fc.asyncProperty(fc.uniqueArray(anyName, { minLength: 1, maxLength: 4 }), async (names) => {
				service.received.length = 0;
				const result = await run('customApiCall', 'send', {
					method: 'DELETE',
					path: 'notes/n-1',
					queryParameters: { parameters: names.map((name) => ({ name, value: 'v' })) },
				});
				const sent = names.map((name) => name.trim());
				const refusable =
					sent.some((name) => ['', '__proto__', 'constructor', 'prototype'].includes(name)) ||
					new Set(sent).size < sent.length ||
					names.some((name) => !encodable(name));
				if (result.items[0].json.error !== undefined) {
					expect(refusable).toBe(true);
					expect(service.received).toHaveLength(0);
					return;
				}
				expect(refusable).toBe(false);
				expect(query(service.received[0].url)).toEqual(sent.map((name) => [name, 'v']));
			}),
			{ seed: SEED, numRuns: RUNS },
		);
	});
});

const encodable = (text: string) => {
	try {
		encodeURIComponent(text);
		return true;
	} catch {
		return false;
	}
};

describe('JSON bodies: every key is sent as written', () => {
	const body = '{"__proto__":{"x":1},"constructor":2,"prototype":3,"toString":"t"}';

	test('Custom API Call Body, as text and as an object from an expression', async () => {
		await run('customApiCall', 'send', { method: 'POST', path: 'notes', body });
		await run('customApiCall', 'send', { method: 'POST', path: 'notes', body: '={{ $json.o }}' }, [
			{ o: JSON.parse(body) },
		]);
		expect(service.received.map((request) => request.body)).toEqual([body, body]);
	});

	test('Borrower › Update Bio from an input row (Map Automatically), Webhook › Update Filters', async () => {
		const bio = JSON.parse(body) as IDataObject;
		await run('borrower', 'update', { borrowerId: 'b-1', mappingMode: 'autoMapInputData' }, [
			{ bio },
		]);
		await run('webhook', 'update', { webhookId: 'w-1', updateFields: { filters: body } });
		expect(service.received.map((request) => request.body)).toEqual([
			`{"bio":${body}}`,
			`{"filters":${body}}`,
		]);
	});
});

describe('Map Automatically: a key of a compound entry the service does not know is refused', () => {
	const create = async (row: string) =>
		await run('person', 'create', { mappingMode: 'autoMapInputData' }, [
			JSON.parse(row) as IDataObject,
		]);

	test.each([
		[
			'{"firstName":"A","emails":[{"value":"a@example.test","primary":true}]}',
			'Input Field "emails" › entry 1: "primary" is not one of: value, type, status, isPrimary (item 0)',
		],
		[
			'{"firstName":"A","phones":[{"value":"1","__proto__":{"isPrimary":true}}]}',
			'Input Field "phones" › entry 1: "__proto__" is not one of: value, type, status, isPrimary (item 0)',
		],
		[
			'{"firstName":"A","addresses":[{"city":"Oslo","zip":"0150"}]}',
			'Input Field "addresses" › entry 1: "zip" is not one of: type, street, city, state, code, country (item 0)',
		],
		[
			'{"firstName":"A","communicationsConsent":{"__proto__":{"email":true}}}',
			'Input Field "communicationsConsent": "__proto__" is not one of: email, call, text, massEmail, postal, visit (item 0)',
		],
		[
			'{"firstName":"A","emails":{"value":"a@example.test"}}',
			'Input Field "emails": must be a list of entries (item 0)',
		],
	])('%s', async (row, message) => {
		expectRefused(await create(row), [message]);
	});

	test('the form\'s own shape ({"values": [...]}) and known keys are sent', async () => {
		await create(
			'{"firstName":"A","emails":{"values":[{"value":"a@example.test","type":"work"}]},"addresses":[{"city":"Oslo","code":"0150"}]}',
		);
		expect(service.received.map((request) => request.body)).toEqual([
			'{"firstName":"A","addresses":[{"city":"Oslo","code":"0150"}],"emails":[{"value":"a@example.test","type":"work"}]}',
		]);
	});
});
