import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { entitiesToSyncProperty } from '../../helpers/compoundFields';
import { fieldGroup, readBody } from '../../helpers/fieldMapper';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';
import { appKeyProperty, planProperty } from '../common.descriptions';
import { shownFor } from '../node.type';

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

export const description = updateDisplayOptions(
	shownFor('authorizationLink', 'create'),
	bodyProperties,
);

/** POST {universal}/api/oauth/authorize-url (spec 4.3): the link for the end user. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const body = readBody(this, itemIndex, bodyProperties);
	return [
		await serviceRequest.call(
			this,
			itemIndex,
			{ method: 'POST', host: 'universal', path: ['oauth', 'authorize-url'], body },
			run,
		),
	];
}
