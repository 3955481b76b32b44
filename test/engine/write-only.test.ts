/**
 * A write-only field (the catalogue's `writeOnly`: User › Create's Password) is sent and never leaves
 * the node (decisions.md, "Write-only fields"): a CRM that answers the created user with its fields,
 * or refuses it with a 400 quoting the password, gives an output item, an error (message and
 * description, in a workflow and with Continue On Fail) and a tool answer without it. Through n8n's
 * engine against a scripted server on 127.0.0.1.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { callAsTool } from '../harness/tool';
import { credentialsFor, sendJson, useHostile } from '../hostile/server';

const service = useHostile();

const PASSWORD = 'S3cret-Pa55word!';
const R = '[redacted]';
const ADDRESS = {
	type: 'work',
	street: '1 Main St',
	city: 'Austin',
	state: 'TX',
	code: '78701',
	country: 'US',
};
/** User › Create's required fields, and the password in Additional Fields. */
const FIELDS = {
	email: 'ann@example.test',
	firstName: 'Ann',
	lastName: 'Lee',
	phone: '555-0100',
	role: 'Agent',
	status: 'Active',
	type: 'Agent',
	username: 'ann',
};
const CREATE: INodeParameters = {
	resource: 'user',
	operation: 'create',
	...FIELDS,
	address: JSON.stringify(ADDRESS),
	additionalFields: { password: PASSWORD },
	requestOptions: { maxAttempts: 1 },
};

/** Every string in a value, keys included. */
function stringsOf(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(stringsOf);
	if (value && typeof value === 'object')
		return Object.entries(value).flatMap(([key, entry]) => [key, ...stringsOf(entry)]);
	return [];
}
const holdsPassword = (value: unknown) => stringsOf(value).some((text) => text.includes(PASSWORD));

/** A CRM that answers the created user with every field it was sent, the password included. */
function echoUser(): void {
	service.script((request, res) => {
		const sent = JSON.parse(request.body) as IDataObject;
		sendJson(res, 201, {
			id: 'u-1',
			...sent,
			welcome: `Your first password is ${PASSWORD}`,
			original: { user: { password: PASSWORD, hint: Buffer.from(PASSWORD).toString('base64') } },
		});
	});
}

/** A CRM that refuses the password, quoting it. */
function refusePassword(): void {
	service.script((_request, res) =>
		sendJson(res, 400, { errorMessage: `password '${PASSWORD}' is too weak` }),
	);
}

const sentBody = () => JSON.parse(service.received[0].body) as IDataObject;

describe('User › Create: the password is sent, never output', () => {
	test('a 201 echoing the password: sent once; the output has no password key and no password anywhere', async () => {
		echoUser();
		const result = await runNode({
			credentials: credentialsFor(service.origin),
			parameters: CREATE,
		});

		expect(result.error).toBeUndefined();
		expect(service.received).toHaveLength(1);
		expect(service.received[0]).toMatchObject({ method: 'POST', url: '/api/users' });
		expect(sentBody()).toEqual({ ...FIELDS, address: ADDRESS, password: PASSWORD });
		expect(result.items).toEqual([
			{
				json: {
					id: 'u-1',
					...FIELDS,
					address: ADDRESS,
					welcome: `Your first password is ${R}`,
					original: { user: { password: R, hint: R } },
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(holdsPassword(result.items)).toBe(false);
	});

	test('a 400 quoting the password: the error message and description hold none of it', async () => {
		refusePassword();
		const result = await runNode({
			credentials: credentialsFor(service.origin),
			parameters: CREATE,
		});

		expect(service.received).toHaveLength(1);
		expect(sentBody().password).toBe(PASSWORD);
		expect(result.error?.message).toBe(
			`The service rejected the request as invalid (HTTP 400): password '${R}' is too weak (item 0)`,
		);
		expect(result.error?.description).toContain('POST crm');
		// Every part of the error but `node`: n8n attaches the node's own parameters (the workflow as
		// saved, where the password was typed) to every error; nothing the service echoed is there.
		const error = Object.fromEntries(
			Object.entries(result.error as IDataObject).filter(([key]) => key !== 'node'),
		);
		expect(Object.keys(error)).toEqual(expect.arrayContaining(['message', 'description', 'stack']));
		expect(holdsPassword(error)).toBe(false);
	});

	test('Continue On Fail: the error item holds none of it', async () => {
		refusePassword();
		const result = await runNode({
			credentials: credentialsFor(service.origin),
			parameters: CREATE,
			onError: 'continueRegularOutput',
		});

		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.error).toBe(
			`The service rejected the request as invalid (HTTP 400): password '${R}' is too weak (item 0)`,
		);
		expect(holdsPassword(result.items)).toBe(false);
	});

	test('Record (JSON): the password given in the record is redacted from the echo as well', async () => {
		echoUser();
		const record = { ...FIELDS, address: ADDRESS, password: PASSWORD };
		const result = await runNode({
			credentials: credentialsFor(service.origin),
			parameters: {
				resource: 'user',
				operation: 'create',
				mappingMode: 'jsonRecord',
				record: JSON.stringify(record),
			},
		});

		expect(result.error).toBeUndefined();
		expect(sentBody()).toEqual(record);
		expect(result.items[0].json).not.toHaveProperty('password');
		expect(holdsPassword(result.items)).toBe(false);
	});
});

describe.each(['mcp', 'agent'] as const)('%s: a model never reads the password', (via) => {
	const parameters: INodeParameters = {
		...CREATE,
		additionalFields: { password: "={{ $fromAI('password', 'The first password', 'string') }}" },
	};
	const call = async () =>
		await callAsTool(
			via,
			{ parameters, credentials: credentialsFor(service.origin) },
			{ password: PASSWORD },
		);

	test('the created user echoing it: the tool answer holds none of it', async () => {
		echoUser();
		const answer = await call();

		expect(answer.error).toBeUndefined();
		expect(sentBody().password).toBe(PASSWORD);
		const [user] = JSON.parse(answer.response ?? 'null') as IDataObject[];
		expect(user).toMatchObject({ id: 'u-1', welcome: `Your first password is ${R}` });
		expect(user).not.toHaveProperty('password');
		expect(answer.response).not.toContain(PASSWORD);
	});

	test('a 400 quoting it: the tool error holds none of it', async () => {
		refusePassword();
		const answer = await call();

		expect(service.received).toHaveLength(1);
		expect(answer.error ?? answer.response).toContain(`password '${R}' is too weak`);
		expect(JSON.stringify(answer)).not.toContain(PASSWORD);
	});
});
