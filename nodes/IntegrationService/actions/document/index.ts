import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Add a document to a loan file in the connected loan origination system',
				action: 'Create a document',
			},
		],
		default: 'create',
	},
	...create.description,
];
