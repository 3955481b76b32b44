/**
 * The locators' list search as the editor calls it (n8n-core's LoadOptionsContext), over real HTTP:
 * the typed words filter each page, each call reads at most five pages and hands back a token to go
 * on (also when nothing matched), entries read as names, IDs that are numbers and records without a
 * name are coped with, the Connection ID of the form is the one used, and each failure is one line
 * without the token.
 */
import { searchList } from '../harness/list-search';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import { credentialsFor, refusingOrigin, sendJson, useHostile } from '../hostile/server';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), {
	people: 1200,
	connections: { 'cred-numeric': { profile: 'numeric' } },
});

const search = (method: string, rest: Partial<Parameters<typeof searchList>[0]> = {}) =>
	searchList({ method, credentials: sandboxCredentials(sandbox), ...rest });

const peopleRequests = () => sandbox.requests.filter((r) => r.path === '/api/people');

describe('list search on the sandbox', () => {
	test('a person is found by part of the name and shown with the email; the ID is the value', async () => {
		const target = sandbox.people('cred-default')[0] as {
			id: string;
			firstName: string;
			lastName: string;
			emails: Array<{ value: string }>;
		};
		const found = await search('searchPerson', {
			filter: `${target.firstName.slice(0, 3)} ${target.lastName}`,
		});
		expect(found.results).toContainEqual({
			name: `${target.firstName} ${target.lastName} · ${target.emails[0].value}`,
			value: target.id,
		});
		expect(peopleRequests().length).toBeGreaterThanOrEqual(1);
	});

	test('by email and by phone digits too', async () => {
		const target = sandbox.people('cred-default')[7] as {
			id: string;
			emails: Array<{ value: string }>;
			phones: Array<{ value: string }>;
		};
		const byEmail = await search('searchPerson', { filter: target.emails[0].value });
		expect(byEmail.results.map((r) => r.value)).toContain(target.id);
		const digits = target.phones[0].value.replace(/\D/g, '').slice(-7);
		const byPhone = await search('searchPerson', { filter: digits });
		expect(byPhone.results.map((r) => r.value)).toContain(target.id);
	});

	test('a search that matches nothing reads at most five pages and hands back a token to go on', async () => {
		sandbox.reset();
		const first = await search('searchPerson', { filter: 'zzz-nobody' });
		expect(first.results).toEqual([]);
		expect(peopleRequests()).toHaveLength(5);
		expect(typeof first.paginationToken).toBe('string');
		sandbox.reset();
		const second = await search('searchPerson', {
			filter: 'zzz-nobody',
			paginationToken: first.paginationToken,
		});
		expect(peopleRequests()).toHaveLength(5);
		// It goes on where the first call stopped (the sandbox pages by nextLink: a `next` cursor).
		expect(peopleRequests()[0].query.next).toEqual(expect.any(String));
		sandbox.reset();
		const last = await search('searchPerson', {
			filter: 'zzz-nobody',
			paginationToken: second.paginationToken,
		});
		// 1,200 people: the third call reaches the end, and there is nothing to go on with.
		expect(last.paginationToken).toBeUndefined();
		expect(peopleRequests().length).toBeLessThanOrEqual(5);
	});

	test('no words: the first page answers at once, with a token', async () => {
		sandbox.reset();
		const found = await search('searchPerson');
		expect(found.results).toHaveLength(100);
		expect(peopleRequests()).toHaveLength(1);
		expect(found.paginationToken).toEqual(expect.any(String));
	});

	test('a user shows by name; the connection is the Connection ID of the form', async () => {
		sandbox.reset();
		const found = await search('searchUser', {
			parameters: { options: { credentialId: 'cred-other' } },
		});
		expect(found.results[0]).toEqual({ name: 'Bo Agent', value: 'user-seed-1' });
		expect(sandbox.requests.map((r) => r.headers['x-service-credential-id'])).toEqual([
			'cred-other',
		]);
		sandbox.reset();
		await search('searchUser');
		expect(sandbox.requests[0].headers['x-service-credential-id']).toBe('cred-default');
	});

	test('numeric IDs are offered as their text', async () => {
		const found = await search('searchAppointmentType', {
			parameters: { options: { credentialId: 'cred-numeric' } },
		});
		expect(found.results.length).toBeGreaterThan(0);
		for (const entry of found.results) expect(entry.value).toMatch(/^\d+$/);
	});

	test.each([
		['401', { status: 401 }, /^The list could not be read: .*401/],
		[
			'429 with a pause longer than a search waits',
			{ status: 429, retryAfter: '30', count: 5 },
			/^The list could not be read: .*429/,
		],
	])('%s is one line without the token', async (_name, fault, message) => {
		sandbox.reset();
		sandbox.inject({ ...fault, match: { pathPrefix: '/api/people' } });
		const failure = searchList({
			method: 'searchPerson',
			credentials: sandboxCredentials(sandbox),
			filter: 'ada',
		});
		await expect(failure).rejects.toThrow(message);
		const error = await failure.catch((e: Error) => e);
		expect(String((error as Error).message)).not.toContain('\n');
		expect(JSON.stringify(error)).not.toContain('sandbox-token');
		sandbox.clearFaults();
	});

	test('a wrong host is one line', async () => {
		const failure = searchList({
			method: 'searchPerson',
			credentials: sandboxCredentials(sandbox, { crmUrl: await refusingOrigin() }),
		});
		await expect(failure).rejects.toThrow(/^The list could not be read: [^\n]+$/);
	});

	test('a service that never answers ends within the search time limit', async () => {
		sandbox.inject({ delayMs: 60_000, count: 5, match: { pathPrefix: '/api/people' } });
		const started = Date.now();
		const failure = searchList({
			method: 'searchPerson',
			credentials: sandboxCredentials(sandbox),
		});
		await expect(failure).rejects.toThrow(/^The list could not be read: /);
		// 15 s is the bound the search sets itself; the test allows for a slow machine.
		expect(Date.now() - started).toBeLessThan(40_000);
		sandbox.clearFaults();
	}, 60_000);
});

describe('list search on a service of its own shape', () => {
	const service = useHostile();

	test('records without a name show by what they have, else by noun and ID; a record without an ID is left out', async () => {
		service.script((request, res) => {
			sendJson(res, 200, {
				people: [
					{ id: 7, emails: [{ value: 'no.name@example.com' }] },
					{ id: 8 },
					{ firstName: 'No', lastName: 'Id' },
					{ id: 9, firstName: 'Ada' },
				],
				_metadata: { total: 4, offset: 0, limit: 100 },
			});
		});
		const found = await searchList({
			method: 'searchPerson',
			credentials: credentialsFor(service.origin),
		});
		expect(found.results).toEqual([
			{ name: 'no.name@example.com', value: '7' },
			{ name: 'Person 8', value: '8' },
			{ name: 'Ada', value: '9' },
		]);
		expect(found.paginationToken).toBeUndefined();
	});
	const pageOf = (people: unknown[], nextLink?: string) => ({
		people,
		_metadata: nextLink ? { nextLink } : { total: people.length, offset: 0, limit: 100 },
	});

	test('an ID past 2^53 has lost digits in the answer: it is left out, the rest of the page stays', async () => {
		service.script((_request, res) => {
			const exact = JSON.stringify(pageOf([{ id: 42, firstName: 'Kept' }]));
			// Written as the service would: digits a JSON parser cannot keep.
			const lossy =
				'{"id":12345678901234567891,"firstName":"Big"},{"id":9007199254740993},{"id":1e21},';
			sendJson(res, 200, exact.replace('[{', `[${lossy}{`));
		});
		const found = await searchList({
			method: 'searchPerson',
			credentials: credentialsFor(service.origin),
		});
		expect(found.results).toEqual([{ name: 'Kept', value: '42' }]);
	});

	test.each([
		[
			'an expression on the input items',
			'={{ $json.conn }}',
			/^The list could not be read: .*input items.*pick By ID, or set a fixed Connection ID to search$/,
		],
		['an object', '={{ {a: 1} }}', /^The list could not be read: Connection ID: must be text/],
		[
			'a number past 2^53',
			'={{ 12345678901234567891 }}',
			/^The list could not be read: Connection ID: is a number beyond/,
		],
	])(
		'a Connection ID the run refuses (%s) is one line, and nothing is sent',
		async (_name, id, message) => {
			service.script((_request, res) => sendJson(res, 200, pageOf([{ id: 1, name: 'A' }])));
			const failure = searchList({
				method: 'searchPerson',
				credentials: credentialsFor(service.origin),
				parameters: { options: { credentialId: id } },
			});
			await expect(failure).rejects.toThrow(message);
			const error = await failure.catch((e: Error) => e);
			expect((error as Error).message).not.toContain('\n');
			expect(service.received).toHaveLength(0);
		},
	);

	test("the service's stack lines are not part of the line", async () => {
		service.script((_request, res) =>
			sendJson(res, 401, {
				error: 'bad token for cred-default\nat Object.<anonymous> (/srv/app.js:1:1)\n    at stack',
			}),
		);
		const failure = searchList({
			method: 'searchPerson',
			credentials: credentialsFor(service.origin),
		});
		await expect(failure).rejects.toThrow(
			/^The list could not be read: .*bad token for cred-default/,
		);
		const { message } = (await failure.catch((e: Error) => e)) as Error;
		expect(message).not.toMatch(/app\.js|Object\.<anonymous>|at stack/);
	});

	test('when the time limit ends after a page was read, the matches so far come with a token to go on', async () => {
		// A full first page at once; the next one never answers.
		const people = [
			{ id: 1, firstName: 'Ada' },
			...Array.from({ length: 99 }, (_, i) => ({ id: i + 2 })),
		];
		service.script((request, res) => {
			if (!request.url.includes('p=2')) sendJson(res, 200, pageOf(people, '/api/people?p=2'));
		});
		const found = await searchList({
			method: 'searchPerson',
			credentials: credentialsFor(service.origin),
			filter: 'ada',
		});
		expect(found.results).toEqual([{ name: 'Ada', value: '1' }]);
		expect(found.paginationToken).toEqual(expect.any(String));
		const asked = service.received.length;
		service.script((_request, res) => sendJson(res, 200, pageOf([{ id: 2, firstName: 'Ada' }])));
		const next = await searchList({
			method: 'searchPerson',
			credentials: credentialsFor(service.origin),
			filter: 'ada',
			paginationToken: found.paginationToken,
		});
		// It goes on with the page that did not come.
		expect(service.received[asked].url).toContain('p=2');
		expect(next.results).toEqual([{ name: 'Ada', value: '2' }]);
	}, 60_000);
});
