/**
 * Version 2's forms on n8n's real engine and the sandbox's real HTTP: a workflow saved with version
 * 1's parameters sends what it sent before, and the same operations written in version 2's form
 * (records picked with locators, the fields up front, one Options collection) send the same requests
 * and give the same output.
 */
import type { INodeParameters } from 'n8n-workflow';

import { IntegrationService } from '../../nodes/IntegrationService/IntegrationService.node';
import { runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 3 });

const picked = (value: string, mode = 'list') => ({ __rl: true, mode, value });

/** Method, path, query, body and connection of each request: what "the same wire" compares. */
const wire = () =>
	sandbox.requests.map(({ method, host, path, query, body, headers }) => ({
		method,
		host,
		path,
		query,
		body,
		connection: headers['x-service-credential-id'],
	}));

async function run(typeVersion: number, parameters: INodeParameters) {
	sandbox.reset();
	const result = await runNode({
		typeVersion,
		parameters,
		credentials: sandboxCredentials(sandbox),
	});
	expect(result.error).toBeUndefined();
	return { wire: wire(), output: result.items.map((item) => item.json) };
}

/** Each case: version 1's saved parameters, the same operation in version 2's form, today's wire. */
const CASES: Array<{
	name: string;
	version1: INodeParameters;
	version2: INodeParameters;
	expected: ReturnType<typeof wire>;
	/** The output of both, where the case decides what it holds. */
	output?: unknown[];
}> = [
	{
		name: 'Note › Create with a Connection ID and Request Options',
		version1: {
			resource: 'note',
			operation: 'create',
			personId: 'p_1',
			additionalFields: { body: 'Wants a showing', subject: 'Call back' },
			credentialId: 'cred-other',
			requestOptions: { timeout: 20 },
		},
		version2: {
			resource: 'note',
			operation: 'create',
			personId: picked('p_1'),
			body: 'Wants a showing',
			subject: 'Call back',
			options: { credentialId: 'cred-other', timeout: 20 },
		},
		expected: [
			{
				method: 'POST',
				host: 'crm',
				path: '/api/notes',
				query: {},
				body: { personId: 'p_1', body: 'Wants a showing', subject: 'Call back' },
				connection: 'cred-other',
			},
		],
	},
	{
		name: 'Task › Create with its assigned user',
		version1: {
			resource: 'task',
			operation: 'create',
			personId: 'p_2',
			additionalFields: { name: 'Call back', assignedUserId: 'user-seed-1' },
		},
		version2: {
			resource: 'task',
			operation: 'create',
			personId: picked('p_2', 'id'),
			name: 'Call back',
			assignedUserId: picked('user-seed-1'),
		},
		expected: [
			{
				method: 'POST',
				host: 'crm',
				path: '/api/tasks',
				query: {},
				body: { personId: 'p_2', name: 'Call back', assignedUserId: 'user-seed-1' },
				connection: 'cred-default',
			},
		],
	},
	{
		name: 'Person › Get with Output › Fields to Return',
		version1: {
			resource: 'person',
			operation: 'get',
			personId: 'p_3',
			output: { fields: 'id, firstName' },
		},
		version2: {
			resource: 'person',
			operation: 'get',
			personId: picked('p_3'),
			options: { fields: 'id, firstName' },
		},
		expected: [
			{
				method: 'GET',
				host: 'crm',
				path: '/api/people/p_3',
				query: {},
				body: undefined,
				connection: 'cred-default',
			},
		],
	},
	{
		name: 'Person › Find with Fields to Return and a pace',
		version1: {
			resource: 'person',
			operation: 'find',
			email: 'ZOE.JONES.1@example.test',
			output: { fields: 'id, firstName' },
			requestOptions: { maxRequestsPerSecond: 100 },
		},
		version2: {
			resource: 'person',
			operation: 'find',
			email: 'ZOE.JONES.1@example.test',
			options: { fields: 'id, firstName', maxRequestsPerSecond: 100 },
		},
		expected: [
			{
				method: 'GET',
				host: 'crm',
				path: '/api/people',
				query: { limit: '100', offset: '0' },
				body: undefined,
				connection: 'cred-default',
			},
			{
				method: 'GET',
				host: 'crm',
				path: '/api/people/p_1',
				query: {},
				body: undefined,
				connection: 'cred-default',
			},
		],
		output: [{ id: 'p_1', firstName: 'Zoe' }],
	},
	{
		// Version 2 shows Emails (JSON) up front, as a text box: an empty one is not sent.
		name: 'Person › Create with its emails given whole as one JSON list',
		version1: {
			resource: 'person',
			operation: 'create',
			firstName: 'Ada',
			additionalFields: { emailsJson: '[{ "value": "ada@example.test" }]', phonesJson: '' },
		},
		version2: {
			resource: 'person',
			operation: 'create',
			firstName: 'Ada',
			emailsJson: '[{ "value": "ada@example.test" }]',
			phonesJson: '',
		},
		expected: [
			{
				method: 'POST',
				host: 'crm',
				path: '/api/people',
				query: {},
				body: { firstName: 'Ada', emails: [{ value: 'ada@example.test' }] },
				connection: 'cred-default',
			},
		],
	},
	{
		name: 'Person › Create or Update with Merge Tags and Fields to Return',
		version1: {
			resource: 'person',
			operation: 'upsert',
			additionalFields: { emailsJson: '[{ "value": "zoe.jones.1@example.test" }]' },
			options: { mergeTags: false },
			output: { fields: 'id' },
		},
		version2: {
			resource: 'person',
			operation: 'upsert',
			additionalFields: { emailsJson: '[{ "value": "zoe.jones.1@example.test" }]' },
			options: { mergeTags: false, fields: 'id' },
		},
		expected: [
			{
				method: 'GET',
				host: 'crm',
				path: '/api/people',
				query: { limit: '100', offset: '0' },
				body: undefined,
				connection: 'cred-default',
			},
			{
				method: 'PUT',
				host: 'crm',
				path: '/api/people/p_1',
				query: { mergeTags: 'false' },
				body: { emails: [{ value: 'zoe.jones.1@example.test' }] },
				connection: 'cred-default',
			},
		],
		output: [{ id: 'p_1', isNew: false }],
	},
	{
		// The other connection holds nobody: its list is read and the person made there.
		name: 'Person › Create or Update with a Connection ID',
		version1: {
			resource: 'person',
			operation: 'upsert',
			additionalFields: { emailsJson: '[{ "value": "zoe.jones.1@example.test" }]' },
			credentialId: 'cred-other',
			output: { fields: 'id' },
		},
		version2: {
			resource: 'person',
			operation: 'upsert',
			additionalFields: { emailsJson: '[{ "value": "zoe.jones.1@example.test" }]' },
			options: { credentialId: 'cred-other', fields: 'id' },
		},
		expected: [
			{
				method: 'GET',
				host: 'crm',
				path: '/api/people',
				query: { limit: '100', offset: '0' },
				body: undefined,
				connection: 'cred-other',
			},
			{
				method: 'POST',
				host: 'crm',
				path: '/api/people',
				query: {},
				body: { emails: [{ value: 'zoe.jones.1@example.test' }] },
				connection: 'cred-other',
			},
		],
		output: [{ id: expect.any(String), isNew: true }],
	},
	{
		name: 'List › Add People',
		version1: {
			resource: 'list',
			operation: 'addPeople',
			listId: 'list-seed-1',
			personIds: ['p_1', 'p_2'],
		},
		version2: {
			resource: 'list',
			operation: 'addPeople',
			listId: picked('list-seed-1'),
			personIds: { entries: [{ id: picked('p_1') }, { id: picked('p_2', 'id') }] },
		},
		expected: [
			{
				method: 'POST',
				host: 'crm',
				path: '/api/lists/list-seed-1/people',
				query: {},
				body: { personIds: ['p_1', 'p_2'] },
				connection: 'cred-default',
			},
		],
	},
	{
		name: 'Person › Get Many with Page Size and a Connection ID',
		version1: {
			resource: 'person',
			operation: 'getAll',
			limit: 2,
			options: { pageSize: 2 },
			credentialId: 'cred-default',
			simplify: false,
		},
		// Simplify off: version 2's Simplify is the simple form (simple-form.test.ts), version 1's not.
		version2: {
			resource: 'person',
			operation: 'getAll',
			limit: 2,
			options: { pageSize: 2, credentialId: 'cred-default' },
			simplify: false,
		},
		expected: [
			{
				method: 'GET',
				host: 'crm',
				path: '/api/people',
				query: { limit: '2', offset: '0' },
				body: undefined,
				connection: 'cred-default',
			},
		],
	},
];

describe('version 1 runs unchanged; version 2 sends the same', () => {
	test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		const before = await run(1, c.version1);
		expect(before.wire).toEqual(c.expected);
		if (c.output) expect(before.output).toEqual(c.output);
		const after = await run(2, c.version2);
		expect(after.wire).toEqual(before.wire);
		// Created records get new IDs and times; the rest of the output is the same.
		const stable = (items: unknown[]) =>
			items.map((item) => ({
				...(item as object),
				id: 0,
				created: 0,
				updated: 0,
				serviceUpdated: 0,
			}));
		expect(stable(after.output)).toEqual(stable(before.output));
	});

	test("version 2's list companions up front are text boxes; version 1's stay JSON editors", () => {
		const properties = new IntegrationService().description.properties;
		const [version2] = properties.filter(
			(property) =>
				property.name === 'emailsJson' &&
				property.displayOptions?.show?.resource?.includes('person') &&
				property.displayOptions.show.operation?.includes('create') &&
				JSON.stringify(property.displayOptions).includes('"gte":2'),
		);
		expect(version2).toMatchObject({ type: 'string', placeholder: 'e.g. {{ $json.emails }}' });
		const group = properties.find(
			(property) =>
				property.name === 'additionalFields' &&
				property.displayOptions?.show?.resource?.includes('person') &&
				property.displayOptions.show.operation?.includes('create') &&
				!JSON.stringify(property.displayOptions).includes('"gte":2'),
		);
		const inGroup = (group?.options as Array<{ name: string; type?: string }>).find(
			(option) => option.name === 'emailsJson',
		);
		expect(inGroup?.type).toBe('json');
	});

	test('version 2 reads its errors from the Options collection by that name', async () => {
		sandbox.reset();
		const result = await runNode({
			typeVersion: 2,
			parameters: {
				resource: 'person',
				operation: 'get',
				personId: picked('p_1'),
				options: { timeout: 0 },
			},
			credentials: sandboxCredentials(sandbox),
		});
		expect(result.error?.message).toMatch(/^Options › Timeout: must be between 1 and 600/);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('an empty locator is refused by n8n (a required parameter) before anything is sent', async () => {
		sandbox.reset();
		const running = runNode({
			typeVersion: 2,
			parameters: { resource: 'note', operation: 'create', personId: picked(''), body: 'x' },
			credentials: sandboxCredentials(sandbox),
		});
		await expect(running).rejects.toThrow(/Parameter "Person ID" is required/);
		expect(sandbox.requests).toHaveLength(0);
	});
});
