import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import type { OperationModule } from '../node.type';
import { nounsOf, systemOf, withArticle } from './entity';
import { getOperation } from './get';
import { getAllOperation } from './getAll';

/** What a resource's index exports: its properties (the Operation option first) and its operations. */
export interface ResourceModule {
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}

/** The operations the generic bodies give any catalogue entity, with their Operation option. */
const GENERIC: Record<
	string,
	{
		module: (resource: ResourceSpec) => OperationModule;
		option: (r: ResourceSpec) => INodePropertyOptions;
	}
> = {
	get: {
		module: getOperation,
		option: (resource) => {
			const { one } = nounsOf(resource);
			return {
				name: 'Get',
				value: 'get',
				description: `Get one ${one} of the ${systemOf(resource)} by its ID`,
				action: `Get ${withArticle(one)}`,
			};
		},
	},
	getAll: {
		module: getAllOperation,
		option: (resource) => {
			const { many } = nounsOf(resource);
			return {
				name: 'Get Many',
				value: 'getAll',
				description: `List ${many} of the ${systemOf(resource)}, page by page`,
				action: `Get many ${many}`,
			};
		},
	},
};

/**
 * The index of a catalogue entity without a hand-written one: the generic operations it lists. An
 * operation with no generic body gets no option and no module (the router's unit test names it).
 */
export function genericResource(resource: ResourceSpec): ResourceModule {
	const names = resource.operations.filter((name) => name in GENERIC);
	const operations: Record<string, OperationModule> = {};
	for (const name of names) operations[name] = GENERIC[name].module(resource);
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options: names.map((name) => GENERIC[name].option(resource)),
		default: '',
	};
	// The first operation the entity has is preselected.
	operation.default = names[0] ?? '';
	return {
		description: [operation, ...names.flatMap((name) => operations[name].description)],
		operations,
	};
}
