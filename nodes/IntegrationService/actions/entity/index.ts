import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import type { OperationModule, ResourceModule } from '../types';
import { createOperation } from './create';
import { deleteOperation } from './delete';
import { getOperation } from './get';
import { getAllOperation } from './getAll';
import { membersOperation } from './members';
import { findOperation } from '../person/find';
import { upsertOperation } from '../person/upsert';
import { nounsOf, systemOf, withArticle } from './texts';
import { updateOperation } from './update';

interface EntityOperation {
	module(resource: ResourceSpec): OperationModule;
	option(resource: ResourceSpec): { name: string; description: string; action: string };
}

/** The entity operations, each with its option's name and sentence. */
const OPERATIONS: Record<string, EntityOperation> = {
	create: { module: createOperation, option: (r) => write('Create', `Create ${anOne(r)}`) },
	delete: { module: deleteOperation, option: (r) => write('Delete', `Delete ${anOne(r)}`) },
	get: {
		module: getOperation,
		option: (r) => ({
			name: 'Get',
			description: `Get one ${nounsOf(r).one} of the ${systemOf(r)} by its ID`,
			action: `Get ${anOne(r)}`,
		}),
	},
	getAll: {
		module: getAllOperation,
		option: (r) => ({
			name: 'Get Many',
			description: `List ${nounsOf(r).many} of the ${systemOf(r)}, page by page`,
			action: `Get many ${nounsOf(r).many}`,
		}),
	},
	update: {
		module: (r) => updateOperation(r),
		option: (r) => write('Update', `Update ${anOne(r)}`),
	},
};

/** Operations of one entity only, whose API makes them special (the service cannot search people). */
const OWN_OPERATIONS: Record<string, Record<string, EntityOperation>> = {
	person: {
		find: {
			module: findOperation,
			option: () => write('Find', 'Find people by email, phone or name'),
		},
		upsert: {
			module: upsertOperation,
			option: () => write('Create or Update', 'Create or update a person'),
		},
	},
};

const anOne = (resource: ResourceSpec) => withArticle(nounsOf(resource).one);
const write = (name: string, sentence: string) => ({
	name,
	description: sentence,
	action: sentence,
});

/** An operation of the entry: an entity operation, or one of its members operations. */
function operationOf(resource: ResourceSpec, value: string) {
	const members = resource.members?.[value];
	if (members) {
		const sentence = `${members.verb[0].toUpperCase()}${members.verb.slice(1)} ${anOne(resource)}`;
		return {
			module: membersOperation(resource, value, members),
			option: write(members.label, sentence),
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

/**
 * A catalogue entry's resource: its operations (the Operation option in the order of their names,
 * the entry's `defaultOperation` or the first preselected) and each operation's properties. An
 * operation the entity files do not know gets no option and no module (catalogue.test.ts names it).
 */
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
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options: options.map(({ name, value, description, action }) => ({
			name,
			value,
			description,
			action,
		})),
		default: '',
	};
	operation.default = resource.defaultOperation ?? options[0]?.value ?? '';
	return {
		description: [
			operation,
			...options.flatMap((option) => operations[String(option.value)].description),
		],
		operations,
	};
}
