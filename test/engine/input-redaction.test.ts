/**
 * A credential secret given as input (pasted into a field, in an input row, in a model's argument)
 * never comes back in an input error, which names the bad value (decisions.md, "Secrets in input
 * errors"): the router takes every form of the run's secrets out of every error that leaves the node.
 * Through n8n's engine against the sandbox; each refused item sent nothing.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { loadPackage, NODE_TYPE, runNode } from '../harness/engine';
import { sandboxCredentials, signedJwtCredentials, useSandbox } from '../harness/fixtures';
import { callAsTool } from '../harness/tool';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 2 });

const FAST = { maxAttempts: 1, maxRequestsPerSecond: 0 };

async function refused(
	parameters: INodeParameters,
	credentials = sandboxCredentials(sandbox),
	items?: IDataObject[],
) {
	const result = await runNode({
		parameters: { requestOptions: FAST, ...parameters },
		credentials,
		...(items ? { items } : {}),
	});
	expect(result.items).toEqual([]);
	expect(sandbox.requests).toHaveLength(0);
	return result.error?.message;
}

describe('an input error never carries a credential secret', () => {
	test('Access Token: an Is Primary in Emails (JSON), Sender and Record (JSON)', async () => {
		const token = sandbox.token;
		expect(
			await refused({
				resource: 'person',
				operation: 'create',
				lastName: 'Lovelace',
				additionalFields: { emailsJson: JSON.stringify([{ value: 'a@b.c', isPrimary: token }]) },
			}),
		).toBe(
			'Additional Fields › Emails (JSON) › entry 1 › Is Primary: must be true or false, got a string (item 0)',
		);
		expect(
			await refused({
				resource: 'emailMessage',
				operation: 'create',
				subject: 's',
				body: 'b',
				recipients: { values: [{ name: 'Bo', email: 'bo@example.test' }] },
				sender: token,
			}),
		).toBe('Sender: is not valid JSON (item 0)');
		expect(
			await refused(
				{
					resource: 'person',
					operation: 'create',
					mappingMode: 'jsonRecord',
					record: '={{ $json.r }}',
				},
				sandboxCredentials(sandbox),
				[{ r: { firstName: 'Ada', rating: `${token} and more` } }],
			),
		).toBe('Record (JSON) › rating: must be a number, got "[redacted] and more" (item 0)');
	});

	test('Client ID and Secret: the client secret as Average Price, in every encoded form', async () => {
		const credentials = signedJwtCredentials(sandbox);
		const secret = credentials.clientSecret as string;
		expect(
			await refused(
				{
					resource: 'person',
					operation: 'create',
					lastName: 'Lovelace',
					additionalFields: { averagePrice: '={{ $json.v }}' },
				},
				credentials,
				[
					{
						v: `${secret} ${encodeURIComponent(secret)} ${Buffer.from(secret).toString('base64')}`,
					},
				],
			),
		).toBe(
			'Additional Fields › Average Price: must be a number, got "[redacted] [redacted] [redacted]" (item 0)',
		);
	});

	/** Person › Create whose Average Price is the credential's token, read from the input item. */
	const priceIsTheToken = async (onError?: 'continueRegularOutput') =>
		await runNode({
			parameters: {
				resource: 'person',
				operation: 'create',
				lastName: 'Lovelace',
				additionalFields: { averagePrice: '={{ $json.v }}' },
				requestOptions: FAST,
			},
			credentials: sandboxCredentials(sandbox),
			items: [{ v: sandbox.token }],
			...(onError ? { onError } : {}),
		});

	test('the whole error n8n keeps (its stack, its messages, any error it wraps) holds no secret', async () => {
		const result = await priceIsTheToken();
		const error = result.run.data.resultData.error as unknown as {
			stack?: string;
			messages?: string[];
			cause?: { message?: string; stack?: string };
		};
		expect(result.error?.message).toBe(
			'Additional Fields › Average Price: must be a number, got "[redacted]" (item 0)',
		);
		const kept = [JSON.stringify(error), error.stack, ...(error.messages ?? [])];
		kept.push(error.cause?.message, error.cause?.stack);
		for (const text of kept) expect(String(text)).not.toContain(sandbox.token);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('Continue On Fail: the error item is redacted too', async () => {
		const result = await priceIsTheToken('continueRegularOutput');
		expect(result.items.map((item) => item.json.error)).toEqual([
			'Additional Fields › Average Price: must be a number, got "[redacted]" (item 0)',
		]);
		expect(sandbox.requests).toHaveLength(0);
	});

	test.each(['mcp', 'agent'] as const)('as a tool (%s): a model’s argument', async (via) => {
		const result = await callAsTool(
			via,
			{
				parameters: { resource: 'person', operation: 'create', mappingMode: 'jsonRecord' },
				credentials: sandboxCredentials(sandbox),
			},
			{ record: { lastName: 'Tool', rating: sandbox.token } },
		);
		expect(result.error?.split('\n')[0]).toBe(
			'Record (JSON) › rating: must be a number, got "[redacted]"',
		);
		expect(result.error).not.toContain(sandbox.token);
		expect(sandbox.requests).toHaveLength(0);
	});
});

/** Every Create and Update with a record mode, and the fields each offers, as the built node declares them. */
async function recordOperations(): Promise<
	Array<{ resource: string; operation: string; id?: string; fields: string[] }>
> {
	const { nodeTypes } = await loadPackage();
	const properties = nodeTypes.getByNameAndVersion(NODE_TYPE).description.properties;
	const shownFor = (resource: string, operation: string) =>
		properties.filter(
			(property) =>
				(property.displayOptions?.show?.resource ?? []).includes(resource) &&
				(property.displayOptions?.show?.operation ?? []).includes(operation),
		);
	return properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			(property.options as Array<{ value: string }>)
				.filter((option) => ['create', 'update'].includes(option.value))
				.map((option) => ({
					resource: property.displayOptions!.show!.resource![0] as string,
					operation: option.value,
				})),
		)
		.map(({ resource, operation }) => {
			const own = shownFor(resource, operation);
			const fields = own
				.filter(
					(property) => !['mappingMode', 'mappingModeNotice', 'record'].includes(property.name),
				)
				.flatMap((property: INodeProperties) =>
					property.type === 'collection'
						? (property.options as INodeProperties[]).map((option) => option.name)
						: [property.name],
				);
			const id = own.find((property) => property.name.endsWith('Id') && operation === 'update');
			return {
				resource,
				operation,
				id: id?.name,
				fields: fields.filter((field) => field !== id?.name),
				record: own.some((property) => property.name === 'mappingMode'),
			};
		})
		.filter((entry) => entry.record);
}

test('property: a secret in any field of any record operation never appears in its error', async () => {
	const secret = sandbox.token;
	const hostile = (field: string): IDataObject[] => [
		{ [field]: secret },
		{ [field]: `${secret}x` },
		{ [field]: [secret] },
		{ [field]: { value: secret } },
		{ [field]: [{ value: secret, isPrimary: secret, type: { secret } }] },
		{ [field]: [[{ fld: secret, opr: secret, num: secret }]] },
		{ [field]: `[${secret}` },
		{ [secret]: 1 },
	];
	let errors = 0;
	for (const { resource, operation, id, fields } of await recordOperations()) {
		sandbox.reset();
		const result = await runNode({
			parameters: {
				resource,
				operation,
				mappingMode: 'jsonRecord',
				record: '={{ $json.r }}',
				...(id ? { [id]: 'x-1' } : {}),
				requestOptions: { ...FAST, concurrency: 4 },
			},
			credentials: sandboxCredentials(sandbox),
			items: [secret, `{${secret}`, ...fields.flatMap(hostile)].map((r) => ({ r })),
			onError: 'continueRegularOutput',
		});
		expect(result.error).toBeUndefined();
		const failed = result.items.filter((item) => typeof item.json.error === 'string');
		errors += failed.length;
		for (const item of failed) expect(JSON.stringify(item.json)).not.toContain(secret);
	}
	expect(errors).toBeGreaterThan(100);
});

test('a secret that straddles the cut of a long value leaves none of its start', async () => {
	const value = `${'x'.repeat(90)}${sandbox.token}${'y'.repeat(50)}`;
	const message = await refused(
		{
			resource: 'person',
			operation: 'create',
			lastName: 'Lovelace',
			additionalFields: { averagePrice: '={{ $json.v }}' },
		},
		sandboxCredentials(sandbox),
		[{ v: value }],
	);
	expect(message).toBe(
		`Additional Fields › Average Price: must be a number, got "${'x'.repeat(90)}[redacted]… (${value.length + 2} characters) (item 0)`,
	);
});
