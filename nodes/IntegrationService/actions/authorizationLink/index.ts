import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../node.type';

import * as create from './create.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['authorizationLink'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Request a link that an end user opens to grant access to an external application; returns the URL and a request ID',
				action: 'Create an authorization link',
			},
		],
		default: 'create',
	},
	...create.description,
];

/** The router's table for this resource: every Operation option above, by its value. */
export const operations: Record<string, OperationModule> = { create };
