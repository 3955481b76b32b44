import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { catalogueResource, nounsOf, systemOf, withArticle } from '../generic/entity';
import { genericResource } from '../generic/resource';
import type { ResourceModule } from '../generic/resource';
import type { OperationModule } from '../node.type';
import { publishedDelete } from './write';

/**
 * The index of a resource with an operation of the specification written by hand (Borrower › Update,
 * Document › Create) beside the published Get, Get Many and Delete. The hand-written one stays the
 * default operation, as saved workflows expect.
 */
export function withOwnOperation(
	value: string,
	own: {
		option: INodePropertyOptions;
		module: OperationModule & { description: INodeProperties[] };
	},
): ResourceModule {
	const resource = catalogueResource(value);
	const generic = genericResource(resource);
	const { one } = nounsOf(resource);
	const operations: Record<string, OperationModule> = {
		...generic.operations,
		delete: publishedDelete(resource),
		[String(own.option.value)]: own.module,
	};
	const [genericOperation, ...genericFields] = generic.description;
	const options = [
		...((genericOperation.options ?? []) as INodePropertyOptions[]),
		{
			name: 'Delete',
			value: 'delete',
			description: `Delete ${withArticle(one)} of the ${systemOf(resource)}`,
			action: `Delete ${withArticle(one)}`,
		},
		own.option,
	].sort((a, b) => a.name.localeCompare(b.name, 'en'));
	return {
		description: [
			{ ...genericOperation, options, default: own.option.value },
			...own.module.description,
			...operations.delete.description,
			...genericFields,
		],
		operations,
	};
}
