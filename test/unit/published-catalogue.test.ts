/**
 * The catalogue's entries of the published endpoints (issue 30) against what the sandbox serves
 * (test/sandbox/entityTable.ts, itself read off crm-endpoints.md and the public pages): the same
 * host, path and list key; the same fields and the same required ones on create, and on update; the
 * issue's conventions (singular camelCase values, `<resource>Id`, operation names, labels in order).
 */
import { crmWebhookResource } from '../../nodes/shared/catalogue/crmAccount';
import { fieldsFor, RESOURCES, type ResourceSpec } from '../../nodes/shared/catalogue';
import { ENTITIES, parseFields, type EntityDef } from '../sandbox/entityTable';
import { WEBHOOK_FIELDS } from '../sandbox/schema';

const PUBLISHED = RESOURCES.filter(
	(resource) => resource.source !== undefined && resource !== crmWebhookResource,
);

const sandboxEntity = (resource: ResourceSpec): EntityDef | undefined =>
	ENTITIES.find((def) => def.host === resource.host && def.path === resource.path.join('/'));

const cases = PUBLISHED.map((resource) => [resource.value, resource] as const);

/** The sandbox's names for the node's operations. */
const SANDBOX_OP: Record<string, string> = {
	getAll: 'list',
	get: 'get',
	create: 'create',
	update: 'update',
	delete: 'delete',
};

describe('published catalogue entries', () => {
	test('every resource the issue names, once', () => {
		expect(PUBLISHED.map((resource) => resource.value).sort()).toEqual(
			[
				'appointment',
				'appointmentOutcome',
				'appointmentType',
				'calendar',
				'calendarEvent',
				'call',
				'customField',
				'emailMessage',
				'event',
				'list',
				'loan',
				'note',
				'smartList',
				'task',
				'team',
				'textMessage',
				'user',
			].sort(),
		);
	});

	test.each(cases)(
		'%s: host, path, list key and operations as the sandbox serves them',
		(_v, resource) => {
			const def = sandboxEntity(resource);
			expect(def).toBeDefined();
			expect(resource.listKey).toBe(def?.listKey);
			const ops = resource.operations.flatMap((op) => (SANDBOX_OP[op] ? [SANDBOX_OP[op]] : []));
			expect([...ops].sort()).toEqual([...(def?.ops ?? [])].sort());
		},
	);

	test.each(cases)(
		'%s: create and update send the published fields, required as marked',
		(_v, resource) => {
			const def = sandboxEntity(resource) as EntityDef;
			for (const operation of ['create', 'update'] as const) {
				if (!resource.operations.includes(operation)) continue;
				const spec = operation === 'create' ? def.create : (def.update ?? def.create);
				if (resource.jsonBody) {
					expect(spec).toBeUndefined();
					continue;
				}
				const published = parseFields(spec ?? '');
				const fields = fieldsFor(resource, operation);
				expect(fields.map((f) => f.name).sort()).toEqual(Object.keys(published.types).sort());
				const required = fields.filter((f) => f.required).map((f) => f.name);
				expect(required.sort()).toEqual(operation === 'create' ? published.required.sort() : []);
			}
		},
	);

	test.each(cases)(
		'%s: the conventions (ID name, labels in order, every field described)',
		(_v, resource) => {
			expect(resource.value).toMatch(/^[a-z][a-zA-Z]*$/);
			if (resource.operations.includes('get'))
				expect(resource.id?.name).toBe(`${resource.value}Id`);
			const labels = (resource.fields ?? []).map((f) => f.label);
			expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en')));
			for (const f of resource.fields ?? []) {
				expect(f.description.length).toBeGreaterThan(10);
				for (const item of f.items ?? []) expect(item.description).not.toBe('');
			}
			expect(resource.operations).toEqual(
				[...resource.operations].sort((a, b) => a.localeCompare(b, 'en')),
			);
		},
	);

	test('crmWebhook (issue 39): the CRM webhooks as the sandbox serves them (crmWebhooks.ts)', () => {
		expect(crmWebhookResource).toMatchObject({
			value: 'crmWebhook',
			host: 'crm',
			path: ['webhooks'],
			listKey: 'webhooks',
			id: { name: 'crmWebhookId' },
			// crm-endpoints.md publishes no GET of one webhook.
			operations: ['create', 'delete', 'getAll', 'update'],
		});
		for (const operation of ['create', 'update'] as const) {
			const fields = fieldsFor(crmWebhookResource, operation);
			expect(fields.map((f) => f.name).sort()).toEqual(Object.keys(WEBHOOK_FIELDS).sort());
			const required = fields.filter((f) => f.required).map((f) => f.name);
			expect(required.sort()).toEqual(operation === 'create' ? ['event', 'url'] : []);
		}
		const labels = (crmWebhookResource.fields ?? []).map((f) => f.label);
		expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en')));
	});
});
