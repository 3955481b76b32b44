/**
 * Person › Create through n8n's real engine against the sandbox: every writable field of spec 2.1/4.2
 * on the wire, unset fields left out, the per-item credential id, validation before anything is sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CONTACT_BODY, CONTACT_PARAMETERS } from '../harness/contact-values';
import { expectInputError, expectRequest, operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';
import { PERSON_FIELDS } from '../sandbox/schema';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
const createPerson = operationRunner(() => sandbox, 'person', 'create');

/** Every one of the 26 body fields of spec 4.2, some through expressions that give text. */
const everyField = {
	firstName: 'Grace',
	lastName: 'Hopper',
	additionalFields: {
		...CONTACT_PARAMETERS,
		assignedPondId: 'pond_2',
		assignedUserId: 'u_7',
		averageBeds: 3,
		// An expression giving text: it must still go out as a number.
		averagePrice: '={{ "450000.5" }}',
		birthday: '1906-12-09',
		communicationsConsent: {
			call: false,
			email: true,
			massEmail: false,
			postal: true,
			text: true,
			visit: false,
		},
		companyName: 'US Navy',
		contactTypes: '={{ ["lead", "client"] }}',
		jobTitle: 'Rear Admiral',
		lastActivity: '2024-05-01T10:00:00Z',
		lastActivityType: 'call',
		officeId: 'office_3',
		rating: '={{ $json.rating }}',
		source: 'Referral',
		sourceId: 'src_9',
		stage: 'Lead',
		stageId: 'stage_1',
		systemSource: 'n8n',
		tags: ['navy', 'cobol'],
		timeframeId: 'tf_1',
		timezone: 'America/New_York',
	},
};

const everyFieldBody = {
	firstName: 'Grace',
	lastName: 'Hopper',
	timezone: 'America/New_York',
	stage: 'Lead',
	stageId: 'stage_1',
	assignedUserId: 'u_7',
	assignedPondId: 'pond_2',
	officeId: 'office_3',
	timeframeId: 'tf_1',
	...CONTACT_BODY,
	tags: ['navy', 'cobol'],
	source: 'Referral',
	systemSource: 'n8n',
	averageBeds: 3,
	averagePrice: 450000.5,
	birthday: '1906-12-09',
	rating: 4,
	lastActivity: '2024-05-01T10:00:00Z',
	lastActivityType: 'call',
	contactTypes: ['lead', 'client'],
	jobTitle: 'Rear Admiral',
	companyName: 'US Navy',
	communicationsConsent: {
		email: true,
		call: false,
		text: true,
		massEmail: false,
		postal: true,
		visit: false,
	},
	sourceId: 'src_9',
};

describe('Person › Create', () => {
	test('with every field set: the exact request, and the created person as output', async () => {
		// Every field the service accepts is covered.
		expect(Object.keys(everyFieldBody).sort()).toEqual(Object.keys(PERSON_FIELDS).sort());
		const result = await createPerson({
			parameters: everyField,
			items: [{ rating: '4' }],
		});

		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		const [request] = sandbox.requests;
		expectRequest(sandbox, request, {
			host: 'crm',
			method: 'POST',
			url: '/api/people',
			credentialId: 'cred-default',
			body: everyFieldBody,
			status: 200,
		});
		// The numbers are JSON numbers on the wire, not text.
		expect(request.rawBody).toContain('"averagePrice":450000.5');
		expect(request.rawBody).toContain('"rating":4');

		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		expect(item.pairedItem).toEqual({ item: 0 });
		const { rating: _rating, ...returned } = everyFieldBody;
		expect(item.json).toEqual({
			...returned,
			id: 'p_1',
			name: 'Grace Hopper',
			created: expect.any(String),
			updated: expect.any(String),
			serviceUpdated: expect.any(String),
			originalIds: { crm: 'p_1' },
			original: everyFieldBody,
		});
		expect(item.json).not.toHaveProperty('rating');
		expect(sandbox.count('people', 'cred-default')).toBe(1);
	});

	test('with only a first name: the body holds that field alone', async () => {
		const result = await createPerson({ parameters: { firstName: 'Ada' } });

		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].body).toEqual({ firstName: 'Ada' });
		expect(sandbox.requests[0].rawBody).toBe('{"firstName":"Ada"}');
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(result.items[0].json).toMatchObject({ id: 'p_1', firstName: 'Ada', name: 'Ada' });
		expect(result.items[0].json).not.toHaveProperty('lastName');
	});

	test('added but empty additional fields are not sent', async () => {
		const result = await createPerson({
			parameters: {
				firstName: 'Ada',
				lastName: 'Lovelace',
				additionalFields: {
					stage: '',
					tags: [],
					contactTypes: '={{ [] }}',
					emails: {},
					phones: { values: [] },
					addresses: {},
					communicationsConsent: {},
					birthday: '={{ $json.missing }}',
				},
			},
		});

		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((r) => r.body)).toEqual([
			{ firstName: 'Ada', lastName: 'Lovelace' },
		]);
		expect(result.items[0].json).toMatchObject({ name: 'Ada Lovelace' });
	});

	test('a per-item Credential ID from an expression reaches the wire for each item', async () => {
		const result = await createPerson({
			parameters: { firstName: '={{ $json.first }}', credentialId: '={{ $json.cid }}' },
			items: [
				{ first: 'Ada', cid: 'cred-other' },
				{ first: 'Ben', cid: 'cred-default' },
			],
		});

		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((r) => [r.headers['x-service-credential-id'], r.body])).toEqual([
			['cred-other', { firstName: 'Ada' }],
			['cred-default', { firstName: 'Ben' }],
		]);
		expect(sandbox.count('people', 'cred-other')).toBe(1);
		expect(sandbox.count('people', 'cred-default')).toBe(1);
		expect(sandbox.people('cred-other').map((p) => p.firstName)).toEqual(['Ada']);
		expect(result.items.map((i) => [i.json.firstName, i.pairedItem])).toEqual([
			['Ada', { item: 0 }],
			['Ben', { item: 1 }],
		]);
	});

	test('50 input items make 50 people, each output paired with its input', async () => {
		const items = Array.from({ length: 50 }, (_, i) => ({ first: `Person${i}` }));
		const result = await createPerson({
			parameters: { firstName: '={{ $json.first }}', lastName: 'Bulk' },
			items,
		});

		expect(result.error).toBeUndefined();
		expect(sandbox.count('people')).toBe(50);
		expect(sandbox.requests).toHaveLength(50);
		expect(sandbox.requests.every((r) => r.method === 'POST' && r.status === 200)).toBe(true);
		expect(result.items).toHaveLength(50);
		result.items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.firstName).toBe(`Person${i}`);
		});
		expect(new Set(result.items.map((i) => i.json.id)).size).toBe(50);
	});
});

describe('Person › Create validation: nothing is sent', () => {
	async function expectRefused(
		additionalFields: INodeParameters,
		message: string,
		items?: IDataObject[],
	) {
		const result = await createPerson({
			parameters: { firstName: 'Ada', additionalFields },
			items,
		});
		expectInputError(sandbox, result, message);
	}

	test('a number field given text that is not a number', async () => {
		await expectRefused(
			{ averageBeds: '={{ $json.beds }}' },
			'Additional Fields › Average Beds: must be a number, got "three" (item 0)',
			[{ beds: 'three' }],
		);
	});

	test('Rating and Average Price given non-numbers', async () => {
		await expectRefused(
			{ rating: '={{ "5 stars" }}' },
			'Additional Fields › Rating: must be a number, got "5 stars" (item 0)',
		);
		await expectRefused(
			{ averagePrice: '={{ "$450,000" }}' },
			'Additional Fields › Average Price: must be a number, got "$450,000" (item 0)',
		);
	});

	test('a communications consent flag given text that is not true or false', async () => {
		// n8n offers no expression for a whole collection (it drops one), so each flag is checked on its own.
		await expectRefused(
			{ communicationsConsent: { call: true, email: '={{ "sometimes" }}' } },
			'Additional Fields › Communications Consent › Email: must be true or false, got "sometimes" (item 0)',
		);
	});

	test('a communications consent flag given "true"/"false" text from an expression is sent as a boolean', async () => {
		const result = await createPerson({
			parameters: {
				firstName: 'Ada',
				additionalFields: {
					communicationsConsent: { email: '={{ "false" }}', text: '={{ $json.ok }}' },
				},
			},
			items: [{ ok: 'true' }],
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0].body).toEqual({
			firstName: 'Ada',
			communicationsConsent: { email: false, text: true },
		});
	});

	test('an email or a phone entry with no value', async () => {
		await expectRefused(
			{ emails: { values: [{ value: 'a@example.test' }, { value: '  ', type: 'work' }] } },
			'Additional Fields › Emails › entry 2: has no value (item 0)',
		);
		await expectRefused(
			{ phones: { values: [{ value: '', type: 'mobile' }] } },
			'Additional Fields › Phones › entry 1: has no value (item 0)',
		);
	});

	test('an address with no part set', async () => {
		await expectRefused(
			{ addresses: { values: [{ type: '' }] } },
			'Additional Fields › Addresses: entry 1 is empty (item 0)',
		);
	});

	test('a text field given an object, and tags given an object', async () => {
		await expectRefused(
			{ jobTitle: '={{ {"title": "x"} }}' },
			'Additional Fields › Job Title: must be text, not an object or a list (item 0)',
		);
		await expectRefused(
			{ tags: '={{ {"a": 1} }}' },
			'Additional Fields › Tags: must be a list of text values, got an object (item 0)',
		);
	});

	test('with Continue On Fail, a bad item becomes an error item and the good ones are still created', async () => {
		const result = await createPerson({
			parameters: {
				firstName: '={{ $json.first }}',
				additionalFields: { averageBeds: '={{ $json.beds }}' },
			},
			items: [
				{ first: 'Ada', beds: 2 },
				{ first: 'Ben', beds: 'many' },
				{ first: 'Cleo', beds: '4' },
			],
			onError: 'continueRegularOutput',
		});

		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((r) => r.body)).toEqual([
			{ firstName: 'Ada', averageBeds: 2 },
			{ firstName: 'Cleo', averageBeds: 4 },
		]);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[1].json.error).toBe(
			'Additional Fields › Average Beds: must be a number, got "many" (item 1)',
		);
		expect(result.items[2].json).toMatchObject({ firstName: 'Cleo', averageBeds: 4 });
	});
});
