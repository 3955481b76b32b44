import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../node.type';

import * as update from './update.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Update',
				value: 'update',
				description: 'Change the URL, event or filters of a calendar webhook registration',
				action: 'Update a calendar webhook',
			},
		],
		default: 'update',
	},
	...update.description,
];

/** The router's table for this resource: every Operation option above, by its value. */
export const operations: Record<string, OperationModule> = { update };
