/**
 * A model that repeats a create (issue 39, finding 10): its client gave up on a create the service held,
 * and it called again with the same arguments. As a tool, the node does not send a create again whose
 * arguments, connection and operation match one this process sent within two minutes: the model gets
 * the first one's answer, or is told where it stands (transport/repeats.ts; decisions.md). Driven both
 * ways n8n runs a tool, against a scripted service that counts the POSTs it receives.
 */
import type * as http from 'http';
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { callAsTool } from '../harness/tool';
import { credentialsFor, sendJson, useHostile } from './server';

const service = useHostile();

const CREATE: INodeParameters = {
	resource: 'person',
	operation: 'create',
	mappingMode: 'defineBelow',
	firstName: "={{ $fromAI('firstName', 'The first name', 'string') }}",
	lastName: 'Tool',
};

const posts = () => service.received.filter((request) => request.method === 'POST');

/** Answers every create with its first name and an ID counting the creates. */
function created(): void {
	service.script((request, res, count) => {
		const { firstName } = JSON.parse(request.body) as { firstName: string };
		sendJson(res, 201, { id: `p_${count}`, firstName });
	});
}

/** Holds every create unanswered; `release` answers the held ones with 201. */
function holding(): { release(): void } {
	const held: Array<{ res: http.ServerResponse; firstName: string }> = [];
	service.script((request, res) => {
		held.push({ res, firstName: (JSON.parse(request.body) as { firstName: string }).firstName });
	});
	return {
		release: () => {
			for (const { res, firstName } of held.splice(0))
				if (!res.destroyed) sendJson(res, 201, { id: 'p_held', firstName });
		},
	};
}

let calls = 0;

/** A tool of one n8n credential: its calls are the same connection. */
function toolOf(via: 'mcp' | 'agent', parameters: INodeParameters = CREATE) {
	const credentialId = `repeats-${via}-${++calls}`;
	return async (args: { firstName: string }, more: INodeParameters = {}) =>
		await callAsTool(
			via,
			{
				parameters: { ...parameters, ...more },
				credentials: credentialsFor(service.origin),
				credentialId,
			},
			args,
		);
}

describe.each(['mcp', 'agent'] as const)('%s', (via) => {
	test.each([
		['held by the service past the deadline', 'hold'],
		['whose connection the service drops after reading it', 'drop'],
	] as const)(
		'a create %s, then the same call again: one POST, and the model is told the first may have been processed',
		async (_what, how) => {
			if (how === 'hold') holding();
			else service.script((_request, res) => void res.destroy());
			const call = toolOf(via, { ...CREATE, requestOptions: { maxTimePerItem: 5 } });

			const first = await call({ firstName: 'Ada' });
			expect(first.error).toContain('not sent twice: the service may already have processed it');
			// The first create reached the service (a machine slow enough to cut it off on its way fails here).
			expect(posts()).toHaveLength(1);
			const again = await call({ firstName: 'Ada' });

			expect(posts()).toHaveLength(1);
			expect(again.response).toBeUndefined();
			expect(again.error).toMatch(
				/^Not sent again: the same create of a person \(same arguments, connection and operation\) was sent [\d.]+ s ago and has an unknown outcome: it may have been processed/,
			);
			if (via === 'mcp')
				expect(again.error).toContain(
					'Look the person up (Get or Get Many) before creating it again; the same create is not sent again within 120 s of the first.',
				);
			// Neither the arguments nor the credential's token come back in it.
			expect(again.error).not.toContain('Ada');
			expect(again.error).not.toContain('token-123456');
		},
	);

	test('answered: the same call again gets the first answer without a POST; another first name is sent', async () => {
		created();
		const call = toolOf(via);

		const first = await call({ firstName: 'Ada' });
		const again = await call({ firstName: 'Ada' });
		const other = await call({ firstName: 'Bea' });

		expect(first.error).toBeUndefined();
		expect(JSON.parse(first.response!)).toEqual([{ id: 'p_1', firstName: 'Ada' }]);
		expect(again).toEqual(first);
		expect(JSON.parse(other.response!)).toEqual([{ id: 'p_2', firstName: 'Bea' }]);
		expect(posts().map((request) => JSON.parse(request.body).firstName)).toEqual(['Ada', 'Bea']);
	});

	test('another connection (Connection ID) is another create: sent, with its own answer', async () => {
		created();
		const call = toolOf(via);

		const first = await call({ firstName: 'Ada' });
		const elsewhere = await call({ firstName: 'Ada' }, { credentialId: 'connection-2' });

		expect(JSON.parse(first.response!)).toEqual([{ id: 'p_1', firstName: 'Ada' }]);
		expect(JSON.parse(elsewhere.response!)).toEqual([{ id: 'p_2', firstName: 'Ada' }]);
		expect(posts().map((request) => request.headers['x-service-credential-id'])).toEqual([
			'cred-1',
			'connection-2',
		]);
	});

	test('a create the service refused (400) is sent again when called again', async () => {
		service.script((_request, res) => sendJson(res, 400, { error: 'firstName is reserved' }));
		const call = toolOf(via);

		const first = await call({ firstName: 'Ada' });
		const again = await call({ firstName: 'Ada' });

		expect(first.error).toContain('HTTP 400');
		expect(again.error).toContain('HTTP 400');
		expect(posts()).toHaveLength(2);
	});
});

test('mcp: a call while the first is still in flight is told so, not sent; once answered, the same call gets that answer', async () => {
	const service_ = holding();
	const call = toolOf('mcp');

	const first = call({ firstName: 'Ada' });
	const givenUpAt = Date.now() + 10_000;
	while (posts().length === 0 && Date.now() < givenUpAt)
		await new Promise((resolve) => setTimeout(resolve, 5));
	const during = await call({ firstName: 'Ada' });
	service_.release();
	const answered = await first;
	const after = await call({ firstName: 'Ada' });

	expect(during.error).toMatch(
		/^Not sent again: the same create of a person \(same arguments, connection and operation\) was sent [\d.]+ s ago and has not been answered yet/,
	);
	expect(during.error).toContain('Wait for it, then look the person up');
	expect(JSON.parse(answered.response!)).toEqual([{ id: 'p_held', firstName: 'Ada' }]);
	expect(after).toEqual(answered);
	expect(posts()).toHaveLength(1);
});

describe('two minutes on (a fake clock: Date only)', () => {
	afterEach(() => jest.useRealTimers());

	test('mcp: the same call is answered from the first until two minutes have passed, then sent again', async () => {
		jest.useFakeTimers({
			now: new Date('2026-11-28T10:00:00Z'),
			doNotFake: [
				'hrtime',
				'nextTick',
				'performance',
				'queueMicrotask',
				'requestAnimationFrame',
				'cancelAnimationFrame',
				'requestIdleCallback',
				'cancelIdleCallback',
				'setImmediate',
				'clearImmediate',
				'setInterval',
				'clearInterval',
				'setTimeout',
				'clearTimeout',
			],
		});
		created();
		const call = toolOf('mcp');
		const start = Date.now();

		const first = await call({ firstName: 'Ada' });
		jest.setSystemTime(start + 119_999);
		const within = await call({ firstName: 'Ada' });
		jest.setSystemTime(start + 120_000);
		const after = await call({ firstName: 'Ada' });

		expect(within).toEqual(first);
		expect(JSON.parse(after.response!)).toEqual([{ id: 'p_2', firstName: 'Ada' }]);
		expect(posts()).toHaveLength(2);
	});
});

test('in a workflow (not a tool) the same create twice is sent twice, as before', async () => {
	created();
	const parameters = { ...CREATE, firstName: 'Ada' };
	const credentials = credentialsFor(service.origin);

	const first = await runNode({ parameters, credentials, credentialId: 'workflow-repeats' });
	const again = await runNode({ parameters, credentials, credentialId: 'workflow-repeats' });

	expect(first.items.map((item) => item.json.id)).toEqual(['p_1']);
	expect(again.items.map((item) => item.json.id)).toEqual(['p_2']);
	expect(posts()).toHaveLength(2);
});
