import type { INodeProperties } from 'n8n-workflow';

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
