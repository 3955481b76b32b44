import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../node.type';

import * as create from './create.operation';
import * as getAll from './getAll.operation';
import { publishedOperations } from './published';
import * as update from './update.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['person'] } },
		options: [
			{
				name: 'Add Tags',
				value: 'addTags',
				description: 'Add tags to a person (CRM contact); tags the person has stay',
				action: 'Add tags to a person',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a person (CRM contact) in the connected CRM',
				action: 'Create a person',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a person (CRM contact) of the connected CRM',
				action: 'Delete a person',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one person (CRM contact) of the connected CRM by its ID',
				action: 'Get a person',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List people (CRM contacts) of the connected CRM, page by page',
				action: 'Get many people',
			},
			{
				name: 'Remove Tags',
				value: 'removeTags',
				description: 'Remove tags from a person (CRM contact); other tags stay',
				action: 'Remove tags from a person',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change fields of a person (CRM contact) in the connected CRM; fields you do not send stay as they are',
				action: 'Update a person',
			},
		],
		default: 'create',
	},
	...create.description,
	...getAll.description,
	...update.description,
	...Object.values(publishedOperations).flatMap((operation) => operation.description),
];

/** The router's table for this resource: every Operation option above, by its value. */
export const operations: Record<string, OperationModule> = {
	create,
	getAll,
	update,
	...publishedOperations,
};
