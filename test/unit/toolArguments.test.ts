/**
 * nodes/IntegrationService/actions/toolArguments.ts: an input error's label leads to the `$fromAI`
 * keys behind it, through collections, fixed collections and numbered entries; a label it cannot
 * follow gives nothing.
 */
import type { INode, INodeProperties } from 'n8n-workflow';

import { argumentsBehind } from '../../nodes/IntegrationService/actions/toolArguments';

const properties: INodeProperties[] = [
	{
		displayName: 'Request Options',
		name: 'requestOptions',
		type: 'collection',
		default: {},
		options: [
			{ displayName: 'Max Attempts', name: 'maxAttempts', type: 'number', default: 5 },
			{
				displayName: 'Max Time per Item (Seconds)',
				name: 'maxTimePerItem',
				type: 'number',
				default: 0,
			},
			{ displayName: 'Timeout (Seconds)', name: 'timeout', type: 'number', default: 30 },
		],
	},
	{ displayName: 'First Name', name: 'firstName', type: 'string', default: '' },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		default: {},
		options: [
			{ displayName: 'Average Price', name: 'averagePrice', type: 'number', default: 0 },
			{
				displayName: 'Emails',
				name: 'emails',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				options: [
					{
						displayName: 'Email',
						name: 'values',
						values: [
							{ displayName: 'Email Address', name: 'value', type: 'string', default: '' },
							{ displayName: 'Type', name: 'type', type: 'string', default: '' },
						],
					},
				],
			},
		],
	},
];

const node = (parameters: INode['parameters']): INode => ({
	id: 'n',
	name: 'Create person',
	type: 'x.integrationServiceTool',
	typeVersion: 1,
	position: [0, 0],
	parameters,
});

const parameters = {
	requestOptions: {
		maxAttempts: "={{ $fromAI('att', 'Attempts', 'number') }}",
		maxTimePerItem: "={{ $fromAI('mt', 'Max time', 'number') }}",
		timeout: "={{ $fromAI('timeout', 'Timeout', 'number') }}",
	},
	firstName: "={{ $fromAI('firstName', 'First name', 'string') }}",
	additionalFields: {
		averagePrice: '={{ $fromAI("price", "Price", "string") }}',
		emails: {
			values: [
				{ value: "={{ $fromAI('email', 'Email', 'string') }}", type: 'work' },
				{
					value: "={{ $fromAI('email2', 'Second email', 'string') }}",
					type: "={{ $fromAI('kind') }}",
				},
			],
		},
	},
};

test.each([
	['First Name: is required', ['firstName']],
	['Additional Fields › Average Price: must be a number, got "cheap"', ['price']],
	['Additional Fields › Emails › entry 1: has no value', ['email']],
	['Additional Fields › Emails › entry 2 › Type: must be text', ['kind']],
	['Additional Fields › Emails › entry 9: has no value', ['email', 'email2', 'kind']],
	['Limit: must be a whole number', []],
	// Request Options › Timeout = 0: only the argument behind Timeout, not every option's.
	['Request Options › Timeout: must be between 1 and 600, got 0', ['timeout']],
	['Request Options › Max Attempts: must be a whole number, got 1.5', ['att']],
	['Request Options › No Such Option: is wrong', []],
	['no label here', []],
])('%s → %j', (message, keys) => {
	expect(argumentsBehind(node(parameters), properties, message)).toEqual(keys);
});
