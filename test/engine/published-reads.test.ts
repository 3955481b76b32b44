/**
 * Get Many and Get of every published resource (issue 30) through n8n's engine against the sandbox,
 * driven from the catalogue: the catalogue's generic operations on each entry's host and path, with
 * the item's Connection ID, the whole wire and the output items asserted.
 */
import { RESOURCES, type ResourceSpec } from '../../nodes/shared/catalogue';
import { operationRunner, useSandbox } from '../harness/fixtures';
import { ENTITIES, seedRecord } from '../sandbox/entityTable';
import type { HostName, Sandbox } from '../sandbox/server';

/** The entries of the service's CRM, LOS and calendar pages (crm-endpoints.md and the pages decisions.md cites). */
const PUBLISHED_RESOURCES = RESOURCES.filter((resource) => resource.source !== undefined);

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 5 });

/** The CRM's webhooks live with the calendar's in the sandbox, not its entity table: crm-webhook.test.ts. */
const offered = (operation: string) =>
	PUBLISHED_RESOURCES.filter(
		(resource) => resource.operations.includes(operation) && resource.value !== 'crmWebhook',
	).map((resource) => [resource.value, resource] as const);
const entityOf = (resource: ResourceSpec) => {
	const def = ENTITIES.find((entity) => entity.path === resource.path.join('/'));
	if (!def) throw new Error(`the sandbox serves no ${resource.value}`);
	return def;
};
/** A seeded record as Simplify outputs it (without `original`). */
function simplified(resource: ResourceSpec, n: number): Record<string, unknown> {
	const { original: _original, ...record } = seedRecord(entityOf(resource), n);
	return record;
}

describe('published resources: read', () => {
	test.each(offered('getAll'))(
		'%s › Get Many: a Limit of 2, simplified, with the Connection ID',
		async (_v, resource) => {
			const result = await operationRunner(
				() => sandbox,
				resource.value,
				'getAll',
			)({
				parameters: { limit: 2, credentialId: 'cred-other' },
			});
			expect(result.error).toBeUndefined();
			expect(sandbox.requests).toHaveLength(1);
			expect(sandbox.requests[0].headers['x-service-credential-id']).toBe('cred-other');
			expect(sandbox.requests[0]).toMatchObject({
				host: resource.host as HostName,
				method: 'GET',
				url: `/api/${resource.path.join('/')}?limit=2&offset=0`,
				status: 200,
			});
			expect(result.items.map((item) => item.json)).toEqual([
				simplified(resource, 1),
				simplified(resource, 2),
			]);
		},
	);

	test.each(offered('get'))('%s › Get: one record by its ID', async (_v, resource) => {
		const record = seedRecord(entityOf(resource), 1);
		const id = record.id as string;
		const result = await operationRunner(
			() => sandbox,
			resource.value,
			'get',
		)({
			parameters: { [resource.id?.name ?? '']: id },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({
			host: resource.host as HostName,
			method: 'GET',
			url: `/api/${resource.path.join('/')}/${id}`,
			rawBody: '',
			status: 200,
		});
		expect(sandbox.requests[0].headers).toMatchObject({
			authorization: `Bearer ${sandbox.token}`,
			'x-service-credential-id': 'cred-default',
		});
		expect(result.items).toEqual([
			{ json: expect.objectContaining({ id }), pairedItem: { item: 0 } },
		]);
	});
});
