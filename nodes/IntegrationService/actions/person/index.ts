import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../node.type';

import * as create from './create.operation';
import * as getAll from './getAll.operation';
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
				name: 'Create',
				value: 'create',
				description: 'Create a person (CRM contact) in the connected CRM',
				action: 'Create a person',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List people (CRM contacts) of the connected CRM, page by page',
				action: 'Get many people',
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
];

/** The router's table for this resource: every Operation option above, by its value. */
export const operations: Record<string, OperationModule> = { create, getAll, update };
