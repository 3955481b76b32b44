import type { INodeProperties } from 'n8n-workflow';

import { entitiesToSyncProperty } from '../../helpers/entityFlags';
import { fieldGroup, readBody } from '../../helpers/fieldMapper';
import { appKeyProperty, planProperty } from '../common.descriptions';
import { oneRequestOperation } from '../singleRequest';

/** The body fields: each parameter is named as its wire field (spec 4.4). */
const bodyProperties: INodeProperties[] = [
	appKeyProperty,
	{
		displayName: 'User Inputs',
		name: 'userInputs',
		type: 'json',
		required: true,
		default: '{}',
		description:
			'The values the external application needs to connect (for example its API key or account ID), as a JSON object, e.g. {"apiKey": "…"}. Sent unchanged.',
	},
	fieldGroup(
		'additional',
		[
			{
				displayName: 'Credential Key',
				name: 'credentialKey',
				type: 'string',
				default: '',
				description: 'Your own key for this connection, for example the ID of the end user it belongs to',
			},
			entitiesToSyncProperty({
				description:
					'Which kinds of records the connection synchronises. Add a flag and switch it on (sync) or off (do not sync); flags you do not add are not sent.',
			}),
			planProperty,
		],
	),
];

export const { description, execute } = oneRequestOperation(
	{ resource: 'credential', operation: 'create' },
	bodyProperties,
	(ctx, itemIndex) => ({
		method: 'POST',
		host: 'universal',
		path: ['credentials'],
		body: readBody(ctx, itemIndex, bodyProperties),
	}),
);
