import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { catalogueResource, nounsOf, systemOf, withArticle } from '../generic/entity';
import { genericResource } from '../generic/resource';
import type { ResourceModule } from '../generic/resource';
import type { OperationModule } from '../node.type';
import { publishedCreate, publishedDelete, publishedUpdate } from './write';

const PUBLISHED_BODIES = { create: publishedCreate, update: publishedUpdate };

/** The option of a published Create or Update of the resource. */
function publishedOption(one: string, operation: 'create' | 'update'): INodePropertyOptions {
	const verb = operation === 'create' ? 'Create' : 'Update';
	const sentence = `${verb} ${withArticle(one)}`;
	return { name: verb, value: operation, description: sentence, action: sentence };
}

/**
 * The index of a resource with an operation of the specification written by hand (Borrower › Update,
 * Document › Create) beside the published Get, Get Many and Delete, and the published Create or
 * Update (`published`, from the entry's fields). The hand-written one stays the default operation,
 * as saved workflows expect.
 */
export function withOwnOperation(
	value: string,
	own: {
		option: INodePropertyOptions;
		module: OperationModule & { description: INodeProperties[] };
	},
	published: ReadonlyArray<'create' | 'update'> = [],
): ResourceModule {
	const resource = catalogueResource(value);
	const generic = genericResource(resource);
	const { one } = nounsOf(resource);
	const operations: Record<string, OperationModule> = {
		...generic.operations,
		delete: publishedDelete(resource),
		[String(own.option.value)]: own.module,
	};
	for (const operation of published) operations[operation] = PUBLISHED_BODIES[operation](resource);
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
		...published.map((operation) => publishedOption(one, operation)),
	].sort((a, b) => a.name.localeCompare(b.name, 'en'));
	return {
		description: [
			{ ...genericOperation, options, default: own.option.value },
			...own.module.description,
			...operations.delete.description,
			...published.flatMap((operation) => operations[operation].description),
			...genericFields,
		],
		operations,
	};
}
