import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../operation.types';
import * as create from './create.operation';
import * as getAll from './getAll.operation';

export const operations: Record<string, OperationModule> = { create, getAll };

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
		],
		default: 'create',
	},
	...create.description,
	...getAll.description,
];
