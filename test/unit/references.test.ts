/**
 * Drawn from the catalogue: every field that names another record is, from version 2, a locator
 * whose "From List" mode searches that record's list through a method the node has; every record ID
 * of Get, Update, Delete and a members operation is one too where the service lists the records; and
 * an ID field that is no locator is on the exception list below, each with its reason.
 */
import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { IntegrationService } from '../../nodes/IntegrationService/IntegrationService.node';
import type { FieldSpec, ResourceSpec } from '../../nodes/shared/catalogue';
import { fieldsFor, RESOURCES, resourceSpec, searchable } from '../../nodes/shared/catalogue';

/** `resource.field` (or `resource.field.part`) → why it stays a text box. */
const NOT_LOCATORS: Record<string, string> = {
	'person.assignedPondId':
		'ponds are no resource of the node: the service publishes no list of them',
	'person.officeId': 'offices are no resource of the node: no published list',
	'person.sourceId': 'lead sources are no resource of the node: no published list',
	'person.stageId': 'stages are no resource of the node: no published list',
	'person.timeframeId': 'timeframes are no resource of the node: no published list',
	'event.propertyId': 'properties (listings) are no resource of the node: no published list',
	'emailMessage.threadId': 'email threads are no resource of the node: no published list',
	'user.participatingOfficeIds': 'offices are no resource of the node: no published list',
	'loan.assignedUserId':
		"the loan origination system's users (loan officers) are not the CRM's: no published list",
	'loan.participatingUserIds': "the loan origination system's users: no published list",
	'document.folderId': 'loan file folders are no resource of the node: no published list',
	'document.propertyId': 'properties are no resource of the node: no published list',
	'document.transactionId': 'transactions are no resource of the node: no published list',
	'document.userId': "the loan origination system's users: no published list",
	'credential.credentialToUpdate':
		'the service publishes no list of connections (only POST and PUT /api/credentials)',
	'webhook.webhookId': 'the calendar host publishes no list of its webhooks',
	'borrower.taxId': "a tax number, no record's ID",
	'node.credentialId':
		'Connection ID: the service publishes no list of the connections (spec 4.x has POST and PUT only)',
};

const node = new IntegrationService();
const properties = node.description.properties;
const searchMethods = Object.keys(node.methods.listSearch);

const isVersion2 = (property: INodeProperties) =>
	JSON.stringify(property.displayOptions?.show?.['@version']) !== '[1]';

/** Version 2's properties of a resource's operation, collections opened (their options, one level). */
function version2Properties(resource: string, operation: string): INodeProperties[] {
	const shown = properties.filter(
		(property) =>
			isVersion2(property) &&
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes(operation),
	);
	return shown.flatMap((property) =>
		property.type === 'collection'
			? [property, ...((property.options ?? []) as INodeProperties[])]
			: [property],
	);
}

/** The list search a locator (or the locators of a list of references) uses. */
function searchOf(property: INodeProperties): string | undefined {
	const locator =
		property.type === 'fixedCollection'
			? ((property.options ?? []) as INodePropertyCollection[])[0]?.values[0]
			: property;
	if (locator?.type !== 'resourceLocator') return undefined;
	const list = locator.modes?.find((mode) => mode.name === 'list');
	const byId = locator.modes?.find((mode) => mode.name === 'id');
	return byId ? (list?.typeOptions?.searchListMethod as string | undefined) : undefined;
}

const bodyFields = (resource: ResourceSpec): FieldSpec[] => [
	...fieldsFor(resource, 'create'),
	...fieldsFor(resource, 'update'),
];

describe('references in the catalogue', () => {
	test.each(RESOURCES.filter((r) => !r.jsonBody).map((r) => [r.value, r] as const))(
		'%s: every field that names a record is a locator searching its list',
		(value, resource) => {
			for (const operation of ['create', 'update'].filter((o) => resource.operations.includes(o)))
				for (const field of fieldsFor(resource, operation as 'create' | 'update')) {
					if (!field.refersTo) continue;
					const target = resourceSpec(field.refersTo);
					expect(target && searchable(target)).toBe(true);
					const shown = version2Properties(value, operation).find((p) => p.name === field.name);
					const method = shown && searchOf(shown);
					expect({ field: field.name, operation, method }).toEqual({
						field: field.name,
						operation,
						method: `search${field.refersTo[0].toUpperCase()}${field.refersTo.slice(1)}`,
					});
					expect(searchMethods).toContain(method);
				}
		},
	);

	test('an ID field that is no locator is on the exception list, with its reason', () => {
		const plainIds: string[] = [];
		for (const resource of RESOURCES)
			for (const field of bodyFields(resource))
				if (/Ids?$/.test(field.name) && !field.refersTo)
					plainIds.push(`${resource.value}.${field.name}`);
		const exceptions = Object.keys(NOT_LOCATORS).filter((key) => !key.startsWith('node.'));
		const recordIds = RESOURCES.filter((r) => r.id && !searchable(r)).map(
			(r) => `${r.value}.${r.id?.name}`,
		);
		expect([...new Set([...plainIds, ...recordIds])].sort()).toEqual(exceptions.sort());
	});

	test('the record ID of every Get, Update, Delete and members operation is a locator where the service lists the records', () => {
		for (const resource of RESOURCES.filter((r) => r.id && searchable(r))) {
			// Operations that act on one record by its ID (Find and Create or Update take none).
			const onOne = resource.operations.filter(
				(o) => ['get', 'update', 'delete'].includes(o) || o in (resource.members ?? {}),
			);
			expect(onOne.length).toBeGreaterThan(0);
			for (const operation of onOne) {
				const id = version2Properties(resource.value, operation).find(
					(p) => p.name === resource.id?.name,
				);
				expect({ operation, method: id && searchOf(id) }).toEqual({
					operation,
					method: expect.stringMatching(/^search/),
				});
			}
		}
	});

	test('version 1 keeps every reference a text box', () => {
		const locators = properties.filter((p) => !isVersion2(p) && p.type === 'resourceLocator');
		expect(locators).toEqual([]);
	});
});
