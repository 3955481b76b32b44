import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../node.type';

import * as create from './create.operation';
import * as update from './update.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['credential'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Connect an external application with the values it needs (user inputs); returns the new credential ID',
				action: 'Create a credential',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change which kinds of records a connection synchronises',
				action: 'Update a credential',
			},
		],
		default: 'create',
	},
	...create.description,
	...update.description,
];

/** The router's table for this resource: every Operation option above, by its value. */
export const operations: Record<string, OperationModule> = { create, update };
