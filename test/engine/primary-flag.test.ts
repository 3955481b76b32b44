/**
 * Is Primary of an email or phone entry, through n8n's engine (which fills every parameter's default
 * into a saved workflow's entries before the node runs) against the sandbox: a flag nobody set is not
 * sent, so Person › Update cannot demote the CRM's primary address; Yes and No are sent; a workflow
 * saved when Is Primary was a toggle (stored only when on, as `true`) still sends true.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 3 });
const createPerson = operationRunner(() => sandbox, 'person', 'create');
const updatePerson = operationRunner(() => sandbox, 'person', 'update');
const updateBorrower = operationRunner(() => sandbox, 'borrower', 'update');

/** Entries as the editor saves them (defaults left out), and what each must send. */
const ENTRIES: [string, INodeParameters, IDataObject][] = [
	[
		'a fresh entry (Not Set, saved without the key)',
		{ value: 'a@example.test' },
		{ value: 'a@example.test' },
	],
	[
		'Not Set given explicitly',
		{ value: 'b@example.test', isPrimary: '' },
		{ value: 'b@example.test' },
	],
	[
		'Yes',
		{ value: 'c@example.test', isPrimary: true },
		{ value: 'c@example.test', isPrimary: true },
	],
	[
		'No',
		{ value: 'd@example.test', isPrimary: false },
		{ value: 'd@example.test', isPrimary: false },
	],
];
const PARAMETERS = { values: ENTRIES.map(([, entry]) => entry) };
const SENT = ENTRIES.map(([, , sent]) => sent);

test('Person › Create: Not Set sends no isPrimary, Yes sends true, No sends false', async () => {
	const result = await createPerson({
		parameters: {
			firstName: 'Ada',
			additionalFields: { emails: PARAMETERS, phones: { values: [{ value: '+1 555 0100' }] } },
		},
	});
	expect(result.error).toBeUndefined();
	expect(sandbox.requests.map((request) => request.body)).toEqual([
		{ firstName: 'Ada', emails: SENT, phones: [{ value: '+1 555 0100' }] },
	]);
});

test('Person › Update: an entry nobody marked sends no isPrimary (the CRM keeps its primary)', async () => {
	const result = await updatePerson({
		parameters: { personId: 'p_2', updateFields: { emails: PARAMETERS } },
	});
	expect(result.error).toBeUndefined();
	expect(sandbox.requests.map((request) => request.rawBody)).toEqual([
		JSON.stringify({ emails: SENT }),
	]);
});

test('a workflow saved while Is Primary was a toggle (true stored, false left out) sends the same', async () => {
	// The toggle's default (false) was never saved: an old entry holds isPrimary only when it was on.
	const old = {
		values: [{ value: 'on@example.test', isPrimary: true }, { value: 'off@example.test' }],
	};
	await updatePerson({ parameters: { personId: 'p_1', updateFields: { emails: old } } });
	await updateBorrower({ parameters: { borrowerId: 'b-1', updateFields: { phones: old } } });
	const sent = [{ value: 'on@example.test', isPrimary: true }, { value: 'off@example.test' }];
	expect(sandbox.requests.map((request) => request.body)).toEqual([
		{ emails: sent },
		{ phones: sent },
	]);
});

test('Map Automatically sends a row’s isPrimary as given, and none when the row has none', async () => {
	const result = await updatePerson({
		parameters: { personId: 'p_3', mappingMode: 'autoMapInputData' },
		items: [
			{
				emails: [
					{ value: 'row@example.test' },
					{ value: 'yes@example.test', isPrimary: true },
					{ value: 'no@example.test', isPrimary: 'false' },
				],
			},
		],
	});
	expect(result.error).toBeUndefined();
	expect(sandbox.requests.map((request) => request.body)).toEqual([
		{
			emails: [
				{ value: 'row@example.test' },
				{ value: 'yes@example.test', isPrimary: true },
				{ value: 'no@example.test', isPrimary: false },
			],
		},
	]);
});

test('Create or Update takes back the 1 and 0 a system with numeric booleans answered, and sends true and false', async () => {
	const upsertPerson = operationRunner(() => sandbox, 'person', 'upsert');
	const result = await upsertPerson({
		parameters: {
			firstName: 'Ada',
			additionalFields: { emailsJson: '={{ $json.emails }}', phonesJson: '={{ $json.phones }}' },
		},
		items: [
			{
				emails: [{ value: 'one@example.test', isPrimary: 1 }],
				phones: [
					{ value: '+1 555 0100', isPrimary: 0 },
					{ value: '+1 555 0101', isPrimary: 1 },
				],
			},
		],
	});
	expect(result.error).toBeUndefined();
	const writes = sandbox.requests.filter((request) => request.method !== 'GET');
	expect(writes.map((request) => request.rawBody)).toEqual([
		JSON.stringify({
			firstName: 'Ada',
			emails: [{ value: 'one@example.test', isPrimary: true }],
			phones: [
				{ value: '+1 555 0100', isPrimary: false },
				{ value: '+1 555 0101', isPrimary: true },
			],
		}),
	]);
});
