import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../node.type';

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

/** The router's table for this resource: every Operation option above, by its value. */
export const operations: Record<string, OperationModule> = { create };
