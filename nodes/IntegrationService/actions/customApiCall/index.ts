import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../node.type';

import * as send from './send.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['customApiCall'] } },
		// Named as the resource: n8n adds its own "Custom API Call" (to the HTTP Request node) to an
		// operation list whose last option has another name.
		options: [
			{
				name: 'Custom API Call',
				value: 'send',
				description:
					'Call any endpoint of the service (loans, notes, tasks, appointments…) with the credential, retries, paging and safety rules of the other operations',
				action: 'Send a request to any endpoint',
			},
		],
		default: 'send',
	},
	...send.description,
];

/** The router's table for this resource: every Operation option above, by its value. */
export const operations: Record<string, OperationModule> = { send };
