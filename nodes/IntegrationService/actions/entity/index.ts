import type { INodePropertyOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import { operationProperty } from '../modules';
import type { OperationModule, ResourceModule } from '../modules';
import { deleteOperation, getOperation, membersOperation } from './byId';
import { getAllOperation } from './getAll';
import { findOperation } from '../person/find';
import { upsertOperation } from '../person/upsert';
import { nounsOf, systemOf, withArticle } from './texts';
import { createOperation, updateOperation } from './write';

/** Option texts in one style: the verb, the record, where it is, then only what a user would not expect. */
interface EntityOperation {
	module(resource: ResourceSpec): OperationModule;
	option(resource: ResourceSpec): { name: string; description: string; action: string };
}

const anOne = (resource: ResourceSpec) => withArticle(nounsOf(resource).one);

/** An option whose description is its action, then where: "in the connected CRM", and `after`. */
const entityOperation = (
	module: EntityOperation['module'],
	name: string,
	[place, after]: [string, string?],
	action = (resource: ResourceSpec) => `${name} ${anOne(resource)}`,
): EntityOperation => ({
	module,
	option: (r) => ({
		name,
		description: `${action(r)} ${place} the ${systemOf(r)}${after ?? ''}`,
		action: action(r),
	}),
});

const OPERATIONS: Record<string, EntityOperation> = {
	create: entityOperation(createOperation, 'Create', ['in']),
	delete: entityOperation(deleteOperation, 'Delete', ['from']),
	get: entityOperation(getOperation, 'Get', ['from', ' by its ID']),
	getAll: entityOperation(
		getAllOperation,
		'Get Many',
		['from', ', page by page'],
		(r) => `Get many ${nounsOf(r).many}`,
	),
	update: entityOperation((r) => updateOperation(r), 'Update', [
		'in',
		'; fields not set stay as they are',
	]),
};

/** Operations of one entity only, whose API makes them special (the service cannot search people). */
const OWN_OPERATIONS: Record<string, Record<string, EntityOperation>> = {
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
	const own = OWN_OPERATIONS[resource.value];
	return own !== undefined && Object.prototype.hasOwnProperty.call(own, value)
		? own[value]
		: OPERATIONS[value];
}

/** A catalogue entry's resource; an operation the entity files do not know gets no option. */
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
	const operation = operationProperty(resource, options, preselected);
	return {
		description: [
			operation,
			...options.flatMap((option) => operations[String(option.value)].description),
		],
		operations,
	};
}
