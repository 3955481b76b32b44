import type { INodeProperties } from 'n8n-workflow';

import { entitiesToSyncProperty } from '../../helpers/compoundFields';
import { fieldGroup } from '../../helpers/fieldMapper';
import { appKeyProperty, planProperty } from '../common.descriptions';
import { createOperation } from '../generic/body';
import { catalogueResource } from '../generic/entity';

/** The body fields: each parameter is named as its wire field (spec 4.3). */
const bodyProperties: INodeProperties[] = [
	{
		...appKeyProperty,
		description:
			'Key of the external application the end user will grant access to, as registered with the Integration Service',
	},
	fieldGroup('additional', [
		{
			displayName: 'Custom Params',
			name: 'customParams',
			type: 'json',
			default: '{}',
			description:
				'Extra values as a JSON object, passed to the service unchanged, e.g. {"tenant": "acme"}',
		},
		entitiesToSyncProperty({
			description:
				'Which kinds of records the new connection synchronises. Add a flag and switch it on (sync) or off (do not sync); flags you do not add are not sent.',
		}),
		{
			...planProperty,
			description: 'Plan to attach to the new connection, as named by the Integration Service',
		},
		{
			displayName: 'Return URI',
			name: 'returnURI',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://example.com/connected',
			description: 'Where to send the end user after they have granted access',
		},
	]),
];

/** POST {universal}/api/oauth/authorize-url (spec 4.3): the link for the end user. */
export const { description, execute } = createOperation(catalogueResource('authorizationLink'), {
	properties: bodyProperties,
});
