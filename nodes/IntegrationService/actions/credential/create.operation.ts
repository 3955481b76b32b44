import type { INodeProperties } from 'n8n-workflow';

import { entitiesToSyncProperty } from '../../helpers/compoundFields';
import { fieldGroup } from '../../helpers/fieldMapper';
import { appKeyProperty, planProperty } from '../common.descriptions';
import { createOperation } from '../generic/body';
import { catalogueResource } from '../generic/entity';

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
	fieldGroup('additional', [
		{
			displayName: 'Credential Key',
			name: 'credentialKey',
			type: 'string',
			default: '',
			description:
				'Your own key for this connection, for example the ID of the end user it belongs to',
		},
		entitiesToSyncProperty({
			description:
				'Which kinds of records the connection synchronises. Add a flag and switch it on (sync) or off (do not sync); flags you do not add are not sent.',
		}),
		planProperty,
	]),
];

/** POST {universal}/api/credentials (spec 4.4): the new credential's ID. */
export const { description, execute } = createOperation(catalogueResource('credential'), {
	properties: bodyProperties,
});
