import type { INodePropertyOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import { operationProperty } from '../modules';
import type { OperationModule, ResourceModule } from '../modules';
import { createOperation } from './create';
import { deleteOperation } from './delete';
import { getOperation } from './get';
import { getAllOperation } from './getAll';
import { findOperation } from '../person/find';
import { upsertOperation } from '../person/upsert';
import { membersOperation } from './members';
import { nounsOf, systemOf, withArticle } from './texts';
import { updateOperation } from './update';

/** Option texts in one style: the verb, the record, where it is, then only what a user would not expect. */
interface EntityOperation {
	module(resource: ResourceSpec): OperationModule;
	option(resource: ResourceSpec): { name: string; description: string; action: string };
}

const OPERATIONS: Record<string, EntityOperation> = {
	create: {
		module: createOperation,
		option: (r) => ({
			name: 'Create',
			description: `Create ${anOne(r)} in the ${systemOf(r)}`,
			action: `Create ${anOne(r)}`,
		}),
	},
	delete: {
		module: deleteOperation,
		option: (r) => ({
			name: 'Delete',
			description: `Delete ${anOne(r)} from the ${systemOf(r)}`,
			action: `Delete ${anOne(r)}`,
		}),
	},
	get: {
		module: getOperation,
		option: (r) => ({
			name: 'Get',
			description: `Get ${anOne(r)} from the ${systemOf(r)} by its ID`,
			action: `Get ${anOne(r)}`,
		}),
	},
	getAll: {
		module: getAllOperation,
		option: (r) => ({
			name: 'Get Many',
			description: `Get many ${nounsOf(r).many} from the ${systemOf(r)}, page by page`,
			action: `Get many ${nounsOf(r).many}`,
		}),
	},
	update: {
		module: (r) => updateOperation(r),
		option: (r) => ({
			name: 'Update',
			description: `Update ${anOne(r)} in the ${systemOf(r)}; fields not set stay as they are`,
			action: `Update ${anOne(r)}`,
		}),
	},
};

/** Operations of one entity only, whose API makes them special (the service cannot search people). */
const OWN_OPERATIONS: Record<string, Record<string, EntityOperation>> = {
	person: {
		find: {
			module: findOperation,
			option: () => ({
				name: 'Find',
				description: 'Find people in the connected CRM by email, phone or name',
				action: 'Find people',
			}),
		},
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

const anOne = (resource: ResourceSpec) => withArticle(nounsOf(resource).one);

function operationOf(resource: ResourceSpec, value: string) {
	const members = resource.members?.[value];
	if (members) {
		const action = `${members.verb[0].toUpperCase()}${members.verb.slice(1)} ${anOne(resource)}`;
		return {
			module: membersOperation(resource, value, members),
			option: {
				name: members.label,
				description: `${action} in the ${systemOf(resource)}`,
				action,
			},
		};
	}
	const own = OWN_OPERATIONS[resource.value];
	const operation =
		own !== undefined && Object.prototype.hasOwnProperty.call(own, value)
			? own[value]
			: OPERATIONS[value];
	return operation
		? { module: operation.module(resource), option: operation.option(resource) }
		: undefined;
}

/** A catalogue entry's resource; an operation the entity files do not know gets no option. */
export function entityResource(resource: ResourceSpec): ResourceModule {
	const options: INodePropertyOptions[] = [];
	const operations: Record<string, OperationModule> = {};
	for (const value of resource.operations) {
		const found = operationOf(resource, value);
		if (!found) continue;
		operations[value] = found.module;
		const description = resource.operationTexts?.[value] ?? found.option.description;
		options.push({ ...found.option, value, description });
	}
	options.sort((a, b) => a.name.localeCompare(b.name, 'en'));
	const operation = operationProperty(
		resource,
		options.map(({ name, value, description, action }) => ({ name, value, description, action })),
		resource.defaultOperation ?? String(options[0]?.value ?? ''),
	);
	return {
		description: [
			operation,
			...options.flatMap((option) => operations[String(option.value)].description),
		],
		operations,
	};
}
