import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { entitiesToSyncProperty } from '../../helpers/compoundFields';
import { fieldGroup, readBody } from '../../helpers/fieldMapper';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';
import { appKeyProperty, planProperty } from '../common.descriptions';
import { shownFor } from '../node.type';

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

export const description = updateDisplayOptions(shownFor('credential', 'create'), bodyProperties);

/** POST {universal}/api/credentials (spec 4.4): the new credential's ID. */
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
			{ method: 'POST', host: 'universal', path: ['credentials'], body },
			run,
		),
	];
}
