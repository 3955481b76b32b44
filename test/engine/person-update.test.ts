/** Person › Update (PUT {crm}/api/people/{id}, beyond the specification) through n8n's engine against the sandbox. */
import { CONTACT_BODY, CONTACT_PARAMETERS } from '../harness/contact-values';
import { expectInputError, operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 5 });
const updatePerson = operationRunner(() => sandbox, 'person', 'update');

/** Every writable field of a person, as Update Fields in the form, and as the body on the wire. */
const FIELDS = {
	firstName: 'Ada',
	lastName: 'Lovelace',
	assignedPondId: 'pond-1',
	assignedUserId: 'user-2',
	averageBeds: 3,
	averagePrice: 450000,
	birthday: '1985-04-12',
	companyName: 'Analytical Engines',
	jobTitle: 'Engineer',
	lastActivity: '2024-05-01T10:00:00Z',
	lastActivityType: 'call',
	officeId: 'office-3',
	source: 'Website',
	sourceId: 'src-4',
	stage: 'Lead',
	stageId: 'stage-5',
	systemSource: 'import',
	timeframeId: 'tf-6',
	timezone: 'America/Chicago',
};

describe('person › update', () => {
	test('every field goes out as the body of one PUT to the person, and the answer is the changed person', async () => {
		const result = await updatePerson({
			parameters: {
				personId: 'p_2',
				updateFields: {
					...FIELDS,
					...CONTACT_PARAMETERS,
					contactTypes: ['lead', 'buyer'],
					tags: ['vip'],
					rating: 4,
					communicationsConsent: { email: true, call: false },
				},
			},
		});
		expect(result.error).toBeUndefined();
		const body = {
			...FIELDS,
			...CONTACT_BODY,
			contactTypes: ['lead', 'buyer'],
			tags: ['vip'],
			rating: 4,
			communicationsConsent: { email: true, call: false },
		};
		expect(sandbox.requests).toHaveLength(1);
		const [request] = sandbox.requests;
		expect(request).toMatchObject({
			host: 'crm',
			method: 'PUT',
			url: '/api/people/p_2',
			status: 200,
		});
		expect(request.headers['x-service-credential-id']).toBe('cred-default');
		expect(request.headers.authorization).toBe(`Bearer ${sandbox.token}`);
		expect(request.body).toEqual(body);
		const { rating: _rating, ...returned } = body;
		expect(result.items).toEqual([
			{
				json: expect.objectContaining({ ...returned, id: 'p_2', name: 'Ada Lovelace' }),
				pairedItem: { item: 0 },
			},
		]);
		// The service keeps the change: the list shows it.
		expect(sandbox.people()[1]).toMatchObject({ id: 'p_2', firstName: 'Ada', stage: 'Lead' });
	});

	test('one field: only it is sent, and the rest of the person stays', async () => {
		const before = sandbox.people()[0];
		const result = await updatePerson({
			parameters: { personId: 'p_1', updateFields: { stage: 'Client' } },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([{ stage: 'Client' }]);
		expect(result.items[0].json).toEqual({
			...before,
			stage: 'Client',
			updated: expect.any(String),
			serviceUpdated: expect.any(String),
		});
	});

	test("Map Automatically: the input item's fields named as the service names them, nothing else", async () => {
		const result = await updatePerson({
			parameters: { personId: '={{ $json.id }}', mappingMode: 'autoMapInputData' },
			items: [
				{ id: 'p_3', row: 7, stage: 'Lead', tags: 'a, b', emails: [{ value: 'x@example.test' }] },
			],
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].url).toBe('/api/people/p_3');
		expect(sandbox.requests[0].body).toEqual({
			stage: 'Lead',
			tags: ['a', 'b'],
			emails: [{ value: 'x@example.test' }],
		});
	});

	test('a Person ID is exactly one encoded path segment', async () => {
		const result = await updatePerson({
			parameters: { personId: 'a/b c?#', updateFields: { stage: 'Lead' } },
			onError: 'continueRegularOutput',
		});
		expect(sandbox.requests.map((request) => request.url)).toEqual(['/api/people/a%2Fb%20c%3F%23']);
		expect(result.items[0].json.error).toBe('Not found (HTTP 404): person not found (item 0)');
	});

	test.each([
		['..', 'Person ID: ".." is not a valid ID (item 0)'],
		['  ', 'Person ID: is required but empty (item 0)'],
	])('Person ID %j is refused before anything is sent', async (personId, message) => {
		expectInputError(
			sandbox,
			await updatePerson({ parameters: { personId, updateFields: { stage: 'Lead' } } }),
			message,
		);
	});

	test('an update that changes nothing is refused before anything is sent', async () => {
		expectInputError(
			sandbox,
			await updatePerson({ parameters: { personId: 'p_1', updateFields: {} } }),
			'Update Fields: add at least one field (item 0)',
		);
	});

	test('a PUT is retried after a server error and lands once', async () => {
		sandbox.inject({ status: 500, count: 1, match: { method: 'PUT' } });
		const result = await updatePerson({
			parameters: {
				personId: 'p_1',
				updateFields: { stage: 'Client' },
				requestOptions: { initialRetryDelay: 10 },
			},
		});
		expect(result.error).toBeUndefined();
		expect(
			sandbox.requests.map((request) => [request.method, request.url, request.status]),
		).toEqual([
			['PUT', '/api/people/p_1', 500],
			['PUT', '/api/people/p_1', 200],
		]);
		expect(result.items[0].json).toMatchObject({ id: 'p_1', stage: 'Client' });
	});
});
