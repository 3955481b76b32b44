import type { INodeProperties } from 'n8n-workflow';

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
				action: 'Update a webhook',
			},
		],
		default: 'update',
	},
	...update.description,
];
