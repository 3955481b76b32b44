/**
 * What the connected systems' own answers need of the node (test/sandbox/profiles.ts): a connector's
 * 422 `{errors: [{path, message}]}` reaches the user's error in its own words, without a secret; an
 * empty list of notes, tasks or calls says that the connection may not sync them (entitiesToSync),
 * to the workflow's author and to a model; a numeric ID that lost digits is refused, not sent.
 */
import { operationRunner, sandboxCredentials, useSandbox } from '../harness/fixtures';
import { callAsTool } from '../harness/tool';
import type { RunResult } from '../harness/engine';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), {
	people: 3,
	connections: {
		'cred-numeric': { profile: 'numeric', entitiesToSync: { notes: true } },
		'cred-uuid': { profile: 'uuid' },
	},
});

const hintsOf = (result: RunResult) =>
	(result.run.data.resultData.runData['Integration Service']?.[0]?.hints ?? []).map(
		(hint) => hint.message,
	);
const HINT = /^No notes came back\. .*entitiesToSync\.notes/;

describe('a connector’s 422 with a list of refused fields', () => {
	test('Appointment create refused by the connector: each path and message in the error, nothing sent twice', async () => {
		const result = await operationRunner(
			() => sandbox,
			'customApiCall',
			'send',
		)({
			parameters: {
				host: 'crm',
				method: 'POST',
				path: 'appointments',
				body: '{"personId": 1, "title": "Showing"}',
				credentialId: 'cred-numeric',
			},
		});
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].status).toBe(422);
		expect(result.error?.message).toBe(
			'The service refused the values sent (HTTP 422): appointmentTypeId: is required (item 0)',
		);
	});

	test('several fields, a path given as keys, and a secret the connector echoed taken out', async () => {
		const errors = [
			{ path: ['startsAt'], message: 'must be a date' },
			{ path: 'location', message: `is not allowed with token ${sandbox.token}` },
			{ message: 'the appointment type is closed' },
		];
		sandbox.inject({ status: 422, body: JSON.stringify({ errors }), count: 1 });
		const result = await operationRunner(
			() => sandbox,
			'appointment',
			'get',
		)({ parameters: { appointmentId: 'appointment-seed-1', credentialId: 'cred-numeric' } });
		const message = result.error?.message ?? '';
		expect(message).toMatch(
			/^The service refused the values sent \(HTTP 422\): startsAt: must be a date; location: is not allowed with token \S+; the appointment type is closed \(item 0\)$/,
		);
		expect(message).not.toContain(sandbox.token);
		expect(JSON.stringify(result.error)).not.toContain(sandbox.token);
	});
});

describe('an empty list of an entity the connection must opt in to', () => {
	test('Note › Get Many on a connection that does not sync notes: no item, a hint naming entitiesToSync', async () => {
		const result = await operationRunner(
			() => sandbox,
			'note',
			'getAll',
		)({
			parameters: { returnAll: true, credentialId: 'cred-uuid' },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.url)).toEqual([
			'/api/notes?limit=100&offset=0',
		]);
		expect(result.items).toEqual([]);
		expect(hintsOf(result)).toEqual([expect.stringMatching(HINT)]);
	});

	test('the same connection opted in by Credential › Update lists its notes, without a hint', async () => {
		const update = await operationRunner(
			() => sandbox,
			'credential',
			'update',
		)({
			parameters: {
				credentialToUpdate: 'cred-uuid',
				entitiesToSync: { notes: true },
			},
		});
		expect(update.error).toBeUndefined();
		expect(sandbox.requests[0].body).toEqual({ entitiesToSync: { notes: true } });
		const result = await operationRunner(
			() => sandbox,
			'note',
			'getAll',
		)({
			parameters: { returnAll: true, credentialId: 'cred-uuid' },
		});
		expect(result.items).toHaveLength(3);
		expect(hintsOf(result)).toEqual([]);
	});

	test('each opt-in entity’s hint names its own flag; an empty list of another entity carries none', async () => {
		const result = await operationRunner(
			() => sandbox,
			'task',
			'getAll',
		)({
			parameters: { returnAll: true, credentialId: 'cred-numeric' },
		});
		// cred-numeric syncs notes only: its tasks are empty, and the hint names tasks; people need none.
		expect(hintsOf(result)).toEqual([expect.stringContaining('entitiesToSync.tasks')]);
		const people = await operationRunner(
			() => sandbox,
			'person',
			'getAll',
		)({
			parameters: { returnAll: true, credentialId: 'cred-other' },
		});
		expect(people.items).toEqual([]);
		expect(hintsOf(people)).toEqual([]);
	});

	test('as a tool, the model reads the hint beside the empty page', async () => {
		const call = await callAsTool(
			'mcp',
			{
				parameters: { resource: 'note', operation: 'getAll', credentialId: 'cred-uuid' },
				credentials: sandboxCredentials(sandbox),
			},
			{},
		);
		expect(call.error).toBeUndefined();
		const [page] = JSON.parse(call.response ?? '[]') as Array<Record<string, unknown>>;
		expect(page).toMatchObject({ notes: [], count: 0, done: true });
		expect(page.hint).toMatch(HINT);
	});
});

describe('a numeric ID', () => {
	test('one that has lost digits (past 2^53) is refused naming the field, and nothing is sent', async () => {
		const result = await operationRunner(
			() => sandbox,
			'note',
			'get',
		)({
			parameters: { noteId: '={{ $json.id }}', credentialId: 'cred-numeric' },
			// 2^53 + 2: the digits of an ID 2^53 + 1 would have become these.
			items: [{ id: Number.MAX_SAFE_INTEGER + 3 }],
		});
		expect(result.error?.message).toMatch(
			/^Note ID: must be text or a whole number up to 9007199254740991, got 9007199254740994: a larger number has lost digits/,
		);
		expect(sandbox.requests).toHaveLength(0);
	});
});
