/**
 * CRM Webhook › Get Many, Create, Delete and Update (crm-endpoints.md: `GET`/`POST {crm}/api/webhooks`,
 * `PUT`/`DELETE {crm}/api/webhooks/{id}`) through n8n's engine against the sandbox: the whole wire
 * (method, URL, token, Connection ID, body) and the output items; the rules of every other resource
 * (a Delete's 404 is an error of the item, a Create is never sent twice); and the threats of the new
 * surface (decisions.md, "The CRM host's webhooks as operations").
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import {
	expectInputError,
	expectRequest,
	operationRunner,
	sandboxCredentials,
	useSandbox,
} from '../harness/fixtures';
import { callAsTool } from '../harness/tool';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));

const run = (operation: string) => operationRunner(() => sandbox, 'crmWebhook', operation);
const FAST = { initialRetryDelay: 10 };
const HOOK = { url: 'https://example.com/hooks/people', event: 'peopleCreated' };
/** What the sandbox seeds on every connection: webhook w-1, shared by the CRM and calendar hosts. */
const SEEDED_W1 = {
	id: 'w-1',
	status: 'active',
	event: 'peopleCreated',
	url: 'https://hooks.example.test/w-1',
	filters: {},
};

describe('CRM Webhook › Create', () => {
	test('POST {crm}/api/webhooks with url, event and filters, the Connection ID; 201, the webhook', async () => {
		const result = await run('create')({
			parameters: {
				...HOOK,
				credentialId: 'cred-other',
				additionalFields: { filters: '{"stage": "Lead"}' },
			},
		});
		expect(result.error).toBeUndefined();
		const body = { ...HOOK, filters: { stage: 'Lead' } };
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			host: 'crm',
			method: 'POST',
			url: '/api/webhooks',
			credentialId: 'cred-other',
			body,
			status: 201,
		});
		expect(result.items).toEqual([
			{ json: { ...body, id: 'wh-1', status: 'active' }, pairedItem: { item: 0 } },
		]);
	});

	test.each([
		['a 500 after the service processed it', { status: 500 }],
		['a 201 cut off midway (broken JSON)', { malformed: true }],
		['a connection dropped after processing', { drop: true }],
	])('%s: not sent again, the item says so', async (_case, fault) => {
		sandbox.inject({ ...fault, count: 1, afterProcessing: true, match: { method: 'POST' } });
		const result = await run('create')({ parameters: { ...HOOK, requestOptions: FAST } });
		expect(sandbox.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
		expect(result.error?.message).toMatch(
			/processed.*not sent (again|twice)|not sent (again|twice).*processed/,
		);
	});

	test('a URL or event left empty, or Filters that are no JSON object: an input error, nothing sent', async () => {
		expectInputError(
			sandbox,
			await run('create')({ parameters: { url: HOOK.url, event: '={{ "" }}' } }),
			'Event: is required but empty (item 0)',
		);
		expectInputError(
			sandbox,
			await run('create')({ parameters: { ...HOOK, additionalFields: { filters: '[1]' } } }),
			expect.stringMatching(/^Additional Fields › Filters: must be a JSON object/),
		);
	});

	test('an input row (Map Automatically): its url, event and filters; other columns ignored', async () => {
		const result = await run('create')({
			parameters: { mappingMode: 'autoMapInputData' },
			items: [{ ...HOOK, filters: { stage: 'Lead' }, row: 7 }],
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0].body).toEqual({ ...HOOK, filters: { stage: 'Lead' } });
	});
});

describe('CRM Webhook › Get Many', () => {
	test('Return All reads every page of GET {crm}/api/webhooks with the Connection ID', async () => {
		sandbox.addWebhook('cred-other', 'w-2', { ...HOOK });
		sandbox.addWebhook('cred-other', 'w-3', { ...HOOK, event: 'notesCreated' });
		const result = await run('getAll')({
			parameters: { returnAll: true, credentialId: 'cred-other', options: { pageSize: 2 } },
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(['w-1', 'w-2', 'w-3']);
		expect(sandbox.requests.map((request) => [request.host, request.method, request.url])).toEqual([
			['crm', 'GET', '/api/webhooks?limit=2&offset=0'],
			['crm', 'GET', '/api/webhooks?offset=2&limit=2'],
		]);
		for (const request of sandbox.requests) {
			expect(request.headers['x-service-credential-id']).toBe('cred-other');
			expect(request.headers.authorization).toBe(`Bearer ${sandbox.token}`);
		}
	});

	test('a Limit of 1: one webhook, one request', async () => {
		const result = await run('getAll')({ parameters: { limit: 1 } });
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([{ json: SEEDED_W1, pairedItem: { item: 0 } }]);
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].url).toBe('/api/webhooks?limit=1&offset=0');
	});
});

describe('CRM Webhook › Delete', () => {
	test('DELETE {crm}/api/webhooks/{id}: { id, deleted }; a second one is a 404 error item', async () => {
		const parameters = { crmWebhookId: 'w-1', credentialId: 'cred-other' };
		const first = await run('delete')({ parameters });
		expect(first.error).toBeUndefined();
		expect(first.items).toEqual([{ json: { id: 'w-1', deleted: true }, pairedItem: { item: 0 } }]);
		expect(sandbox.requests[0]).toMatchObject({
			host: 'crm',
			method: 'DELETE',
			url: '/api/webhooks/w-1',
			rawBody: '',
			status: 200,
		});
		expect(sandbox.requests[0].headers['x-service-credential-id']).toBe('cred-other');
		expect(sandbox.requests[0].headers.authorization).toBe(`Bearer ${sandbox.token}`);
		const again = await run('delete')({ parameters, onError: 'continueRegularOutput' });
		expect(sandbox.requests).toHaveLength(2);
		expect(again.items).toHaveLength(1);
		expect(again.items[0].json.error).toBe('Not found (HTTP 404): webhook not found (item 0)');
		// Without Continue On Fail the 404 stops the run: "nothing to delete" is no success.
		const stopped = await run('delete')({ parameters });
		expect(stopped.error?.message).toMatch(/^Not found \(HTTP 404\)/);
	});

	test('a 500 after the service processed it is not sent again', async () => {
		sandbox.inject({ status: 500, count: 1, afterProcessing: true, match: { method: 'DELETE' } });
		const result = await run('delete')({
			parameters: { crmWebhookId: 'w-1', requestOptions: FAST },
		});
		expect(sandbox.requests).toHaveLength(1);
		expect(result.error?.message).toMatch(/HTTP 500.*not sent twice/);
	});

	test.each([
		['a/b', '/api/webhooks/a%2Fb'],
		['..', undefined],
	])('the ID %j stays one path segment (or is refused)', async (id, url) => {
		if (url) sandbox.addWebhook('cred-default', id, { ...HOOK });
		const result = await run('delete')({ parameters: { crmWebhookId: id } });
		if (!url) {
			expectInputError(sandbox, result, expect.stringMatching(/^CRM Webhook ID: /));
			return;
		}
		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0].url).toBe(url);
	});
});

describe('CRM Webhook › Update, and the calendar webhook beside it', () => {
	test('PUT {crm}/api/webhooks/{id} of the fields added, the changed webhook', async () => {
		const result = await run('update')({
			parameters: { crmWebhookId: 'w-1', updateFields: { event: 'peopleUpdated' } },
		});
		expect(result.error).toBeUndefined();
		expectRequest(sandbox, sandbox.requests[0], {
			host: 'crm',
			method: 'PUT',
			url: '/api/webhooks/w-1',
			credentialId: 'cred-default',
			body: { event: 'peopleUpdated' },
		});
		expect(result.items).toEqual([
			{ json: { ...SEEDED_W1, event: 'peopleUpdated' }, pairedItem: { item: 0 } },
		]);
	});

	test('a saved Webhook › Update (resource "webhook") still goes to the calendar host', async () => {
		const saved: INodeParameters = {
			resource: 'webhook',
			operation: 'update',
			webhookId: 'w-1',
			updateFields: { url: HOOK.url },
		};
		const result = await runNode({ parameters: saved, credentials: sandboxCredentials(sandbox) });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0]).toMatchObject({ host: 'calendar', method: 'PUT' });
		expect(sandbox.requests[0].url).toBe('/api/webhooks/w-1');
	});
});

describe('CRM Webhook as an AI tool', () => {
	test('a model’s record with a made-up key is refused by name, nothing sent', async () => {
		const call = await callAsTool(
			'mcp',
			{
				parameters: { resource: 'crmWebhook', operation: 'create', mappingMode: 'jsonRecord' },
				credentials: sandboxCredentials(sandbox),
			},
			{ record: { ...HOOK, secret: 'x' } },
		);
		expect(call.response).toBeUndefined();
		expect(call.error).toContain('"secret" is not one of: event, url, filters');
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a created webhook that echoes the access token comes back redacted', async () => {
		const result = await run('create')({
			parameters: { event: HOOK.event, url: `https://example.com/hooks?t=${sandbox.token}` },
		});
		expect(result.error).toBeUndefined();
		expect(JSON.stringify(result.items)).not.toContain(sandbox.token);
	});
});
