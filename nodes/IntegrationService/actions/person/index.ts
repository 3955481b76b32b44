import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../operation.types';
import * as create from './create.operation';

export const operations: Record<string, OperationModule> = { create };

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
		],
		default: 'create',
	},
	...create.description,
];
