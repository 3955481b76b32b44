/**
 * Person › Find and Create or Update called by a model (MCP and the AI Agent): Find answers in a few
 * hundred characters; an ambiguous match is said plainly with what to do, and nothing is created; a
 * create or update the model sends again after a timeout is not sent twice. No output or error of
 * either operation carries a credential secret.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import { callAsTool } from '../harness/tool';
import { LOOKALIKES } from '../sandbox/lookalikes';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 250 });
let ids: Array<string | number>;
beforeEach(() => (ids = sandbox.addPeople('cred-default', LOOKALIKES)));

const FIND: INodeParameters = {
	resource: 'person',
	operation: 'find',
	findBy: 'email',
	email: "={{ $fromAI('email', 'The email address to look for', 'string') }}",
};
const UPSERT: INodeParameters = {
	resource: 'person',
	operation: 'upsert',
	mappingMode: 'defineBelow',
	firstName: "={{ $fromAI('firstName', 'The first name', 'string') }}",
	additionalFields: {
		emailsJson: "={{ [{ value: $fromAI('email', 'The email address', 'string') }] }}",
	},
};

async function tool(via: 'mcp' | 'agent', parameters: INodeParameters, args: IDataObject) {
	return await callAsTool(via, { parameters, credentials: sandboxCredentials(sandbox) }, args);
}
const writes = () => sandbox.requests.filter((r) => r.method !== 'GET');

describe.each(['mcp', 'agent'] as const)('%s', (via) => {
	test('"find a person by email" answers in a few hundred characters', async () => {
		const call = await tool(via, FIND, { email: 'KJ@nasa.test' });
		expect(call.error).toBeUndefined();
		const [person] = JSON.parse(call.response!) as IDataObject[];
		expect(person).toEqual(
			expect.objectContaining({ id: ids[5], name: 'Katherine Johnson', emails: expect.any(Array) }),
		);
		expect(call.response!.length).toBeLessThan(500);
	});

	test('an ambiguous match is said plainly, with what to do; nothing is created', async () => {
		const call = await tool(via, UPSERT, { firstName: 'Who', email: 'noemail@example.test' });
		expect(call.error).toContain(
			`2 people match this email (IDs ${ids[6]}, ${ids[7]}), so none was updated and nothing was sent`,
		);
		expect(call.error).not.toContain('(item 0)');
		expect(writes()).toEqual([]);
	});
});

test('a create the model sends again after it timed out is not sent twice', async () => {
	// The first create reaches the service, which answers too late for the client.
	sandbox.inject({ delayMs: 1500, count: 1, afterProcessing: true, match: { method: 'POST' } });
	const timed = { ...UPSERT, requestOptions: { timeout: 1, maxAttempts: 1 } };
	const args = { firstName: 'Slow', email: 'slow@example.test' };
	// One n8n credential for both calls, as one MCP client's tool has.
	const call = async () =>
		await callAsTool(
			'mcp',
			{ parameters: timed, credentials: sandboxCredentials(sandbox), credentialId: 'toolShared' },
			args,
		);
	const first = await call();
	expect(first.error).toEqual(expect.any(String));
	const again = await call();
	// Told the first may have been processed, or (once the service has it) the person is updated.
	expect(again.error ?? again.response).toMatch(/Not sent again|"isNew":false/);
	expect(sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	const made = sandbox.people().filter((p) => JSON.stringify(p).includes('slow@'));
	expect(made.length).toBeLessThanOrEqual(1);
});

test('no secret in any output or error of Find and Create or Update', async () => {
	const { token } = sandbox;
	const credentials = sandboxCredentials(sandbox);
	const secrets = [token, credentials.clientSecret].filter(
		(secret): secret is string => typeof secret === 'string' && secret !== '',
	);
	const runs = [
		await runNode({
			parameters: { resource: 'person', operation: 'find', findBy: 'name', name: token },
			credentials,
		}),
		await runNode({
			parameters: {
				...UPSERT,
				firstName: token,
				additionalFields: { emailsJson: `[{"value":"${token}@x.test"}]` },
			},
			credentials,
		}),
		await runNode({
			parameters: {
				...UPSERT,
				firstName: 'A',
				additionalFields: { emailsJson: '[{"value":"noemail@example.test"}]' },
			},
			credentials,
			onError: 'continueRegularOutput',
		}),
	];
	for (const result of runs) {
		const seen = JSON.stringify([result.items, result.error ?? null]);
		for (const secret of secrets) expect(seen).not.toContain(secret);
	}
});
