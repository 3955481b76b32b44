/**
 * Person › Find and Person › Create or Update in n8n's real engine against the sandbox, on the wire:
 * each match rule, the ambiguity error, repeated emails in one run, one scan of the people list per
 * run, the early stop, numeric IDs; odd rows, a misbehaving service, a model calling the node as a
 * tool, and no secret in what comes out.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import { LOOKALIKES } from '../sandbox/lookalikes';
import type { Sandbox } from '../sandbox/server';

const SEEDED = 250;
let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), {
	people: SEEDED,
	connections: { 'cred-numeric': { profile: 'numeric' } },
});

const [ada, adaAgain, grace, grace2, alan, kj, lead1, lead2, mary] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
let ids: Array<string | number>;
beforeEach(() => (ids = sandbox.addPeople('cred-default', LOOKALIKES)));
const id = (n: number) => ids[n];

async function run(
	parameters: INodeParameters,
	items?: IDataObject[],
	onError?: 'continueRegularOutput',
) {
	return await runNode({
		parameters: { resource: 'person', ...parameters },
		credentials: sandboxCredentials(sandbox),
		items,
		...(onError ? { onError } : {}),
	});
}

const lists = () => sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/api/people');
const others = () =>
	sandbox.requests.filter((r) => !(r.method === 'GET' && r.path === '/api/people'));
const wire = () => others().map((r) => `${r.method} ${r.url}`);
/** 250 seeded + 9 lookalikes in pages of 100. */
const PAGES = 3;

const find = (findBy: string, value: string, options: INodeParameters = {}): INodeParameters => ({
	operation: 'find',
	findBy,
	[findBy]: value,
	options,
});

describe('Find: each match rule, on the wire', () => {
	test('by email: trimmed, any case, every email of a person; each match read by its ID', async () => {
		const result = await run(find('email', '  ADA.lovelace@EXAMPLE.test '));
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.id)).toEqual([id(ada), id(adaAgain)]);
		expect(lists()).toHaveLength(PAGES);
		expect(wire()).toEqual([`GET /api/people/${id(ada)}`, `GET /api/people/${id(adaAgain)}`]);
		const again = await run(find('email', 'alan.t@bletchley.TEST'));
		expect(again.items.map((i) => i.json.id)).toEqual([id(alan)]);
	});

	test.each([
		['+1 (555) 010-0001', [ada, adaAgain]],
		['1-555-010-0001', [ada, adaAgain]],
		['555.010.0001', [ada, adaAgain]],
		['5550100002', [grace]],
		['+44 20 7946 0000', [alan]],
		['0044 20 7946 0001', [alan]],
		['020 7946 0001 x99', [alan]],
		['(555) 010-0004', [mary]],
	])(
		'by phone %s: its last ten digits, whatever the country code, punctuation or extension',
		async (phone, expected) => {
			const result = await run(find('phone', phone));
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => i.json.id)).toEqual(expected.map(id));
		},
	);

	test('by name: the whole name in any case, first + last or the name alone', async () => {
		const both = await run(find('name', ' grace   HOPPER'));
		expect(both.items.map((i) => i.json.id)).toEqual([id(grace), id(grace2)]);
		const only = await run(find('name', 'Mary Jackson'));
		expect(only.items.map((i) => i.json.id)).toEqual([id(mary)]);
		const part = await run(find('name', 'Grace'));
		expect(part.items).toEqual([]);
	});

	test('one item with the matches; nothing matching: nothing, an empty list, or the item fails', async () => {
		const one = await run(find('email', 'kj@nasa.test', { output: 'oneItem' }));
		expect(one.items.map((i) => i.json)).toEqual([
			{ people: [expect.objectContaining({ id: id(kj) })], count: 1 },
		]);
		expect((await run(find('email', 'nobody@example.test'))).items).toEqual([]);
		const empty = await run(find('email', 'nobody@example.test', { output: 'oneItem' }));
		expect(empty.items.map((i) => i.json)).toEqual([{ people: [], count: 0 }]);
		const fails = await run(find('email', 'nobody@example.test', { whenNone: 'error' }));
		expect(fails.error?.message).toBe('No person has this email (item 0)');
	});

	test('the early stop: a Limit reads only the pages it needs', async () => {
		const first = sandbox.people()[0] as { emails: Array<{ value: string }> };
		const result = await run(find('email', first.emails[0].value, { limit: 1 }));
		expect(result.items.map((i) => i.json.id)).toEqual(['p_1']);
		expect(lists()).toHaveLength(1);
		// Limit 2 of the two Adas, the last people of the list: every page is read.
		sandbox.requests.length = 0;
		const both = await run(find('email', 'ada.lovelace@example.test', { limit: 2 }));
		expect(both.items).toHaveLength(2);
		expect(lists()).toHaveLength(PAGES);
	});

	test('numeric IDs stay numbers, in the output and on the wire', async () => {
		const numeric = sandbox.addPeople('cred-numeric', LOOKALIKES);
		const result = await run({ ...find('phone', '555 010 0002'), credentialId: 'cred-numeric' });
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.id)).toEqual([numeric[grace]]);
		expect(typeof result.items[0].json.id).toBe('number');
		expect(wire()).toEqual([`GET /api/people/${numeric[grace]}`]);
	});

	test('odd input is refused before anything is sent', async () => {
		const empty = await run(find('email', '   '));
		expect(empty.error?.message).toBe('Email: is empty: there is nothing to find by (item 0)');
		const short = await run(find('phone', '555-01'));
		expect(short.error?.message).toMatch(/^Phone: has fewer than 7 digits/);
		expect(sandbox.requests).toHaveLength(0);
	});
});

const upsert = (extra: INodeParameters = {}): INodeParameters => ({
	operation: 'upsert',
	firstName: '={{ $json.first }}',
	additionalFields: {
		emailsJson: '={{ $json.email ? [{ value: $json.email }] : [] }}',
		phonesJson: '={{ $json.phone ? [{ value: $json.phone }] : [] }}',
		tags: '={{ $json.tags ?? [] }}',
	},
	...extra,
});

const posts = () => others().filter((r) => r.method === 'POST');

describe('Create or Update, on the wire', () => {
	test('one match is updated, none is created; one scan for the run: requests = list pages + rows', async () => {
		const result = await run(upsert({ options: { mergeTags: true } }), [
			{ first: 'Katherine', email: ' KJ@nasa.test', tags: ['vip'] },
			{ first: 'New', email: 'someone.new@example.test' },
			{ first: 'Mary', email: 'mary@nowhere.test', phone: '+1 555 010 0004' },
			{ first: 'Grace', phone: '555-010-0002' },
		]);
		expect(result.error).toBeUndefined();
		const created = sandbox.people().find((p) => JSON.stringify(p).includes('someone.new@'));
		// Items run side by side: the writes in any order.
		expect(wire().sort()).toEqual(
			[
				`PUT /api/people/${id(kj)}?mergeTags=true`,
				'POST /api/people',
				`PUT /api/people/${id(mary)}?mergeTags=true`,
				`PUT /api/people/${id(grace)}?mergeTags=true`,
			].sort(),
		);
		expect(lists()).toHaveLength(PAGES);
		expect(sandbox.requests).toHaveLength(PAGES + 4);
		expect(result.items.map((i) => [i.json.id, i.json.isNew])).toEqual([
			[id(kj), false],
			[created?.id, true],
			[id(mary), false],
			[id(grace), false],
		]);
		// Merge Tags: the tag sent joins the person's tags.
		const kjPut = others().find((r) => r.path === `/api/people/${id(kj)}`);
		expect(kjPut?.body).toEqual(expect.objectContaining({ tags: ['vip'] }));
		expect(result.items[0].json.tags).toEqual(expect.arrayContaining(['vip']));
	});

	test('by email first: a phone of another person does not turn an email match into an ambiguity', async () => {
		const result = await run(upsert(), [
			{ first: 'Alan', email: 'alan@bletchley.test', phone: '555 010 0004' },
		]);
		expect(result.error).toBeUndefined();
		expect(wire()).toEqual([`PUT /api/people/${id(alan)}`]);
		const phoneFirst = await run(upsert({ matchBy: 'phoneThenEmail' }), [
			{ first: 'Kat', email: 'alan@bletchley.test', phone: '555 010 0003' },
		]);
		expect(phoneFirst.error).toBeUndefined();
		expect(phoneFirst.items[0].json.id).toBe(id(kj));
		sandbox.requests.length = 0;
		const emailOnly = await run(upsert({ matchBy: 'email' }), [
			{ first: 'Grace', email: 'grace.new@example.test', phone: '555 010 0002' },
		]);
		expect(emailOnly.items[0].json.isNew).toBe(true);
		expect(posts()).toHaveLength(1);
	});

	test('several matches: an error naming their IDs, nothing sent, never one picked', async () => {
		const result = await run(upsert(), [{ first: 'Who', email: 'NOEMAIL@example.test' }]);
		expect(result.error?.message).toBe(
			`2 people match this email (IDs ${id(lead1)}, ${id(lead2)}), so none was updated and nothing was sent: update one of them by its ID, or make the email unique (item 0)`,
		);
		expect(others()).toEqual([]);
		const phones = await run(upsert(), [{ first: 'Ada', phone: '(555) 010-0001' }]);
		expect(phones.error?.message).toMatch(
			new RegExp(`^2 people match this phone \\(IDs ${id(ada)}, ${id(adaAgain)}\\)`),
		);
		expect(others()).toEqual([]);
	});

	test('repeated emails in one run: one person made, then updated, even side by side', async () => {
		const rows = ['fresh@example.test', ' FRESH@example.test', 'Fresh@Example.Test '].map(
			(email, n) => ({ first: `Row${n}`, email }),
		);
		const result = await run(upsert({ requestOptions: { concurrency: 3 } }), rows);
		expect(result.error).toBeUndefined();
		expect(posts()).toHaveLength(1);
		const made = result.items[0].json.id;
		expect(result.items.map((i) => [i.json.id, i.json.isNew])).toEqual([
			[made, true],
			[made, false],
			[made, false],
		]);
		expect(wire()).toEqual([
			'POST /api/people',
			`PUT /api/people/${made}`,
			`PUT /api/people/${made}`,
		]);
		expect(sandbox.people().filter((p) => JSON.stringify(p).includes('fresh@'))).toHaveLength(1);
		expect(lists()).toHaveLength(PAGES);
	});

	test('the index is read once per run, whatever the number of rows: a second run reads it again', async () => {
		const rows = Array.from({ length: 12 }, (_, n) => ({
			first: `R${n}`,
			email: `r${n}@example.test`,
		}));
		await run(upsert({ requestOptions: { concurrency: 4 } }), rows);
		expect(lists()).toHaveLength(PAGES);
		expect(sandbox.requests).toHaveLength(PAGES + rows.length);
		await run(upsert(), rows.slice(0, 2));
		expect(lists()).toHaveLength(2 * PAGES);
		expect(posts()).toHaveLength(rows.length);
	});

	test('numeric IDs: the person found is updated by its number and output as one', async () => {
		const numeric = sandbox.addPeople('cred-numeric', LOOKALIKES);
		const result = await run(upsert({ credentialId: 'cred-numeric' }), [
			{ first: 'Kat', email: 'kj@nasa.test' },
		]);
		expect(result.error).toBeUndefined();
		expect(wire()).toEqual([`PUT /api/people/${numeric[kj]}`]);
		expect(result.items[0].json.id).toBe(numeric[kj]);
	});
});

describe('odd rows', () => {
	test('no email and no phone: an error of the item, nothing sent; the other rows go on', async () => {
		const result = await run(
			upsert(),
			[
				{ first: 'Nobody' },
				{ first: 'Short', phone: '555-01' },
				{ first: 'Kat', email: 'kj@nasa.test' },
			],
			'continueRegularOutput',
		);
		expect(result.items.map((i) => i.json.error ?? i.json.id)).toEqual([
			'Emails or Phones: has no email or phone to match on, so nothing was sent (a phone needs 7 digits or more) (item 0)',
			'Emails or Phones: has no email or phone to match on, so nothing was sent (a phone needs 7 digits or more) (item 1)',
			id(kj),
		]);
		expect(wire()).toEqual([`PUT /api/people/${id(kj)}`]);
	});

	test('a phone in every format finds the one person', async () => {
		const formats = [
			'+1 (555) 010-0003',
			'1-555-010-0003',
			'555.010.0003',
			'5550100003',
			'+15550100003',
			'001 555 010 0003 ext 7',
		];
		const result = await run(
			upsert({ matchBy: 'phone' }),
			formats.map((phone) => ({ first: 'Kat', phone })),
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.id)).toEqual(formats.map(() => id(kj)));
		expect(posts()).toEqual([]);
	});
});

describe('a misbehaving service', () => {
	test('a 429 during the scan is waited out; the scan goes on and the row is written once', async () => {
		sandbox.inject({
			status: 429,
			retryAfter: '0',
			count: 1,
			match: { method: 'GET', pathPrefix: '/api/people' },
		});
		const result = await run(upsert(), [{ first: 'New', email: 'after429@example.test' }]);
		expect(result.error).toBeUndefined();
		expect(lists().map((r) => r.status)).toEqual([429, 200, 200, 200]);
		expect(posts()).toHaveLength(1);
	});

	test('a page refused: the item fails and nothing is created; the next item reads that page again', async () => {
		sandbox.inject({ status: 400, count: 1, match: { method: 'GET', pathPrefix: '/api/people' } });
		const result = await run(
			upsert(),
			[
				{ first: 'A', email: 'refused@example.test' },
				{ first: 'B', email: 'refused@example.test' },
			],
			'continueRegularOutput',
		);
		expect(result.items[0].json.error).toEqual(expect.any(String));
		expect(result.items[1].json.isNew).toBe(true);
		expect(posts()).toHaveLength(1);
		expect(lists().map((r) => r.status)).toEqual([400, 200, 200, 200]);
	});

	test('a create with an unknown outcome: later rows with that email fail rather than create', async () => {
		sandbox.inject({
			drop: true,
			afterProcessing: true,
			count: 1,
			match: { method: 'POST', pathPrefix: '/api/people' },
		});
		const result = await run(
			upsert(),
			[
				{ first: 'A', email: 'lost@example.test' },
				{ first: 'B', email: 'LOST@example.test' },
				{ first: 'C', email: 'kj@nasa.test' },
			],
			'continueRegularOutput',
		);
		expect(posts()).toHaveLength(1);
		expect(result.items[0].json.error).toEqual(expect.any(String));
		expect(result.items[1].json.error).toBe(
			'Not created or updated: the create of item 0 with this email (lost@example.test) has an unknown outcome, so that person may exist already (item 1)',
		);
		expect(result.items[2].json.id).toBe(id(kj));
	});
});
