import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../node.type';

import * as update from './update.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['borrower'] } },
		options: [
			{
				name: 'Update',
				value: 'update',
				description: 'Change fields of a borrower in the connected loan origination system',
				action: 'Update a borrower',
			},
		],
		default: 'update',
	},
	...update.description,
];

/** The router's table for this resource: every Operation option above, by its value. */
export const operations: Record<string, OperationModule> = { update };
