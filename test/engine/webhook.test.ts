/** Webhook › Update (PUT {calendar}/api/webhooks/{id}) through n8n's engine against the sandbox. */
import {
	expectInputError,
	expectSent,
	operationRunner,
	useSandbox,
	type ExpectedRequest,
} from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

/** What the sandbox seeds as webhook w-1 of every connection. */
const SEEDED_W1 = {
	id: 'w-1',
	status: 'active',
	event: 'peopleCreated',
	url: 'https://hooks.example.test/w-1',
	filters: {},
};

/** A request of Webhook › Update: PUT to the calendar host. */
function calendarPut(url: string, credentialId: string, body: unknown): ExpectedRequest {
	return { host: 'calendar', method: 'PUT', url, credentialId, body };
}

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
const updateWebhook = operationRunner(() => sandbox, 'webhook', 'update');

describe('webhook › update', () => {
	test('every field: URL, event and filters', async () => {
		const result = await updateWebhook({
			parameters: {
				webhookId: 'w-1',
				updateFields: {
					url: 'https://example.com/hooks/people?token=abc',
					event: 'peopleUpdated',
					filters: '{"stage": "Lead", "tags": ["vip"]}',
				},
			},
		});
		const body = {
			url: 'https://example.com/hooks/people?token=abc',
			event: 'peopleUpdated',
			filters: { stage: 'Lead', tags: ['vip'] },
		};
		expectSent(sandbox, result, [calendarPut('/api/webhooks/w-1', 'cred-default', body)]);
		expect(result.items).toEqual([
			{ json: { id: 'w-1', status: 'active', ...body }, pairedItem: { item: 0 } },
		]);
	});

	test('only the required Webhook ID and one field: nothing else is sent, the rest stays', async () => {
		const result = await updateWebhook({
			parameters: { webhookId: 'w-1', updateFields: { event: 'documentsDeleted' } },
		});
		expectSent(sandbox, result, [
			calendarPut('/api/webhooks/w-1', 'cred-default', { event: 'documentsDeleted' }),
		]);
		expect(result.items).toEqual([
			{ json: { ...SEEDED_W1, event: 'documentsDeleted' }, pairedItem: { item: 0 } },
		]);
	});

	test('any event text is accepted; Filters of {} are sent as an empty object', async () => {
		sandbox.addWebhook('cred-default', 'w-2', {
			event: 'peopleCreated',
			filters: { stage: 'Lead' },
		});
		const result = await updateWebhook({
			parameters: {
				webhookId: 'w-2',
				updateFields: { event: 'somethingCustom', filters: '{}' },
			},
		});
		expectSent(sandbox, result, [
			calendarPut('/api/webhooks/w-2', 'cred-default', { event: 'somethingCustom', filters: {} }),
		]);
		expect(result.items[0].json).toEqual({
			id: 'w-2',
			status: 'active',
			event: 'somethingCustom',
			url: '',
			filters: {},
		});
	});

	test.each([
		['"a/b"', 'a/b', '/api/webhooks/a%2Fb'],
		['"x/../y"', 'x/../y', '/api/webhooks/x%2F..%2Fy'],
	])('the ID %s stays one path segment and reaches that webhook', async (_case, id, url) => {
		sandbox.addWebhook('cred-default', id, {
			event: 'peopleCreated',
			url: 'https://old.example.test',
		});
		const result = await updateWebhook({
			parameters: { webhookId: id, updateFields: { url: 'https://new.example.test' } },
		});
		expectSent(sandbox, result, [
			calendarPut(url, 'cred-default', { url: 'https://new.example.test' }),
		]);
		expect(result.items).toEqual([
			{
				json: {
					id,
					status: 'active',
					event: 'peopleCreated',
					url: 'https://new.example.test',
					filters: {},
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('the Credential ID is read per item: each item reaches its own connection', async () => {
		sandbox.addWebhook('cred-other', 'w-other', { event: 'loansCreated' });
		const result = await updateWebhook({
			items: [
				{ id: 'w-other', connection: 'cred-other' },
				{ id: 'w-1', connection: '' },
			],
			parameters: {
				webhookId: '={{ $json.id }}',
				credentialId: '={{ $json.connection }}',
				updateFields: { url: '={{ "https://example.com/" + $json.id }}' },
			},
		});
		expectSent(sandbox, result, [
			calendarPut('/api/webhooks/w-other', 'cred-other', { url: 'https://example.com/w-other' }),
			calendarPut('/api/webhooks/w-1', 'cred-default', { url: 'https://example.com/w-1' }),
		]);
		expect(result.items).toEqual([
			{
				json: {
					id: 'w-other',
					status: 'active',
					event: 'loansCreated',
					url: 'https://example.com/w-other',
					filters: {},
				},
				pairedItem: { item: 0 },
			},
			{ json: { ...SEEDED_W1, url: 'https://example.com/w-1' }, pairedItem: { item: 1 } },
		]);
	});

	test.each([
		[
			'an ID of ".."',
			{ webhookId: '..', updateFields: { event: 'x' } },
			'Webhook ID: ".." is not a valid ID (item 0)',
		],
		[
			'an ID whose expression is empty',
			{ webhookId: '={{ "" }}', updateFields: { event: 'x' } },
			'Webhook ID: is required but empty (item 0)',
		],
		[
			'no update field',
			{ webhookId: 'w-1', updateFields: {} },
			'Update Fields: add at least one field (item 0)',
		],
		[
			'only blank update fields',
			{ webhookId: 'w-1', updateFields: { url: '', event: '', filters: '' } },
			'Update Fields: add at least one field (item 0)',
		],
		[
			'Filters that are not JSON',
			{ webhookId: 'w-1', updateFields: { filters: "{stage: 'Lead'}" } },
			'Update Fields › Filters: is not valid JSON',
		],
		[
			'Filters that are a list',
			{ webhookId: 'w-1', updateFields: { filters: '[{"stage": "Lead"}]' } },
			'Update Fields › Filters: must be a JSON object like {"key": "value"}, got a list (item 0)',
		],
		[
			'an Event that is an object',
			{ webhookId: 'w-1', updateFields: { event: '={{ { a: 1 } }}' } },
			'Update Fields › Event: must be text, not an object or a list (item 0)',
		],
	])(
		'%s is an input error naming the field, and nothing is sent',
		async (_case, parameters, message) => {
			const result = await updateWebhook({ parameters });
			expectInputError(sandbox, result, expect.stringContaining(message));
		},
	);

	test("an unknown webhook is the service's 404, reported with the item", async () => {
		const result = await updateWebhook({
			parameters: { webhookId: 'missing', updateFields: { event: 'x' } },
		});
		expect(sandbox.requests).toHaveLength(1);
		expect(result.error?.message).toBe('Not found (HTTP 404): webhook not found (item 0)');
	});
});
