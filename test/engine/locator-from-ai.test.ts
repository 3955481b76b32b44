/**
 * A locator as a tool's parameter: version 2's Note › Create whose Person comes from `$fromAI`, called
 * the two ways n8n 2.41 runs a tool (test/harness/tool.ts), sends the ID the model gave. n8n's "let the
 * model define this parameter" button writes the `$fromAI` into the locator's value and switches a
 * "From List" locator to "By ID" (editor-ui, ParameterInputList's override); a locator left "From
 * List" with an expression is read the same.
 */
import type { INodeParameters } from 'n8n-workflow';

import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import { callAsTool } from '../harness/tool';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 3 });

const fromAI = (key: string) => `={{ $fromAI('${key}', \`\`, 'string') }}`;

const noteCreate = (mode: string): INodeParameters => ({
	resource: 'note',
	operation: 'create',
	personId: { __rl: true, mode, value: fromAI('person') },
	body: fromAI('body'),
});

test.each([
	['mcp', 'id'],
	['mcp', 'list'],
	['agent', 'id'],
	['agent', 'list'],
] as const)(
	'%s: Note › Create (version 2) with Person from $fromAI in "%s" mode sends that ID',
	async (via, mode) => {
		sandbox.reset();
		const call = await callAsTool(
			via,
			{ typeVersion: 2, parameters: noteCreate(mode), credentials: sandboxCredentials(sandbox) },
			{ person: 'p_2', body: 'Asked for a call back' },
		);
		expect(call.error).toBeUndefined();
		expect(
			sandbox.requests.map(({ method, host, path, body }) => ({ method, host, path, body })),
		).toEqual([
			{
				method: 'POST',
				host: 'crm',
				path: '/api/notes',
				body: { personId: 'p_2', body: 'Asked for a call back' },
			},
		]);
	},
);
