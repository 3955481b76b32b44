import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import { RESOURCES } from '../../../shared/catalogue';
import * as customApiCall from '../customApiCall';
import type { EntityOperation, OperationModule, ResourceModule } from '../modules';
import { SERVICE_OPERATIONS } from '../serviceResources';
import { byIdOperation, membersOperation } from './byId';
import { getAllOperation } from './getAll';
import { findOperation } from '../person/find';
import { upsertOperation } from '../person/upsert';
import { anOne, entityOperation, nounsOf } from './texts';
import { writeOperation } from './write';

const OPERATIONS: Record<string, EntityOperation> = {
	create: entityOperation((r) => writeOperation(r, 'create'), 'Create', ['in']),
	delete: entityOperation((r) => byIdOperation(r, 'delete'), 'Delete', ['from']),
	get: entityOperation((r) => byIdOperation(r, 'get'), 'Get', ['from', ' by its ID']),
	getAll: entityOperation(
		getAllOperation,
		'Get Many',
		['from', ', page by page'],
		(r) => `Get many ${nounsOf(r).many}`,
	),
	update: entityOperation((r) => writeOperation(r, 'update'), 'Update', [
		'in',
		'; fields not set stay as they are',
	]),
};

/** Operations of one resource only: finding people, and the service's own resources. */
const OWN_OPERATIONS: Record<string, Record<string, EntityOperation>> = {
	...SERVICE_OPERATIONS,
	customApiCall: customApiCall.operations,
	person: {
		find: entityOperation(
			findOperation,
			'Find',
			['in', ' by email, phone or name'],
			() => 'Find people',
		),
		upsert: {
			module: upsertOperation,
			option: () => ({
				name: 'Create or Update',
				description:
					'Update the person with this email or phone in the connected CRM, or create one',
				action: 'Create or update a person',
			}),
		},
	},
};

function operationOf(resource: ResourceSpec, value: string) {
	const members = resource.members?.[value];
	if (members) {
		const verb = `${members.verb[0].toUpperCase()}${members.verb.slice(1)}`;
		const module = (r: ResourceSpec) => membersOperation(r, value, members);
		return entityOperation(module, members.label, ['in'], (r) => `${verb} ${anOne(r)}`);
	}
	// The catalogue's own words: no "constructor" or "__proto__" among them.
	return OWN_OPERATIONS[resource.value]?.[value] ?? OPERATIONS[value];
}

/** A catalogue entry's resource; an operation no file here knows gets no option. */
export function entityResource(resource: ResourceSpec): ResourceModule {
	const options: INodePropertyOptions[] = [];
	const operations: Record<string, OperationModule> = {};
	for (const value of resource.operations) {
		const found = operationOf(resource, value);
		if (!found) continue;
		operations[value] = found.module(resource);
		const { name, description, action } = found.option(resource);
		options.push({
			name,
			value,
			description: resource.operationTexts?.[value] ?? description,
			action,
		});
	}
	options.sort((a, b) => a.name.localeCompare(b.name, 'en'));
	const preselected = resource.defaultOperation ?? String(options[0]?.value ?? '');
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options,
		default: preselected,
	};
	return {
		description: [
			operation,
			...options.flatMap((option) => operations[String(option.value)].description),
		],
		operations,
	};
}

/** Every resource's properties and operations: the node's properties and the router's table. */
export const RESOURCE_MODULES: Record<string, ResourceModule> = Object.fromEntries(
	RESOURCES.map((resource) => [resource.value, entityResource(resource)]),
);
